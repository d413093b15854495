#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, to try profiles/slurm for real (docs/cluster.md).
#   sudo tools/slurm_single_node.sh start   # munge + slurmctld + slurmd; waits until the node is idle
#   sudo tools/slurm_single_node.sh stop    # also removes the slurm.conf that start wrote
# Needs root and Debian's packages slurmctld slurmd slurm-client munge (tested: SLURM 22.05,
# munge 0.5.15, Debian 12). No accounting database (AccountingStorageType=none), as in many
# small labs: `sacct` answers "accounting storage is disabled", so the profile queries squeue.
set -euo pipefail
action=${1:-start}
conf_dir=/etc/slurm
state=/var/lib/falseclaims-slurm
host=$(hostname -s)

stop() {
  pkill -x slurmd 2>/dev/null || true
  pkill -x slurmctld 2>/dev/null || true
  pkill -x munged 2>/dev/null || true
}

# Without a controller, a slurm.conf left behind makes every later `scontrol show config`
# wait 10 s for it; Snakemake's SLURM executor plugin runs that command whenever Snakemake
# starts (even `snakemake --version`), so every later run would start 10 s late.
forget_config() {
  if grep -qs "ClusterName=falseclaims-test" "$conf_dir/slurm.conf"; then
    rm -f "$conf_dir/slurm.conf"
  fi
}

if [[ $action == stop ]]; then stop; forget_config; exit 0; fi
if [[ $action != start ]]; then echo "usage: $0 start|stop" >&2; exit 2; fi
for exe in munged slurmctld slurmd sinfo squeue; do
  command -v "$exe" >/dev/null || { echo "missing $exe: apt-get install slurmctld slurmd slurm-client munge" >&2; exit 3; }
done
stop
mkdir -p "$state/ctld" "$state/d" /run/munge "$conf_dir"
chown munge:munge /run/munge
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
cat > "$conf_dir/slurm.conf" <<CONF
ClusterName=falseclaims-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
rm -f "$conf_dir/cgroup.conf"
sudo_munge() { if command -v runuser >/dev/null; then runuser -u munge -- "$@"; else "$@"; fi; }
sudo_munge munged
slurmctld -c
slurmd -c
for _ in $(seq 1 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qx idle; then echo "SLURM up: node $host idle ($cpus CPUs, $mem MB)"; exit 0; fi
  sleep 1
done
echo "SLURM did not become idle within 60 s; logs in $state" >&2
sinfo >&2 || true
exit 1
