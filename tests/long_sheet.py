"""A small long-layout survey workbook written with openpyxl in a test's tmp_path: a
"Papers" sheet (one row per paper x data set, own headers) and a "Results" sheet (one row
per method, a header "Model" for the methods); "Kim 2023" fills two papers rows and two
blocks of results rows (BraTS, LiTS), its first block lacking a value."""

from __future__ import annotations

from pathlib import Path

PAPERS = [["Study", "Title", "Task", "Split", "Test size", "Data set"],
          ["Kim 2023", "Brain and liver nets", "segmentation", "hold-out", 120, "BraTS"],
          ["Kim 2023", "Brain and liver nets", "segmentation", "hold-out", 80, "LiTS"],
          ["Lee 2022", "A lung model", "segmentation", "5-fold CV + test", 50, "LIDC"],
          ["Ota 2022", "Kidney nets", "segmentation", "train/val/test", 40, "KiTS"],
          ["Park 2021", "Skin lesions", "classification", "train/val/test", 600, "ISIC"],
          ["Roy 2021", "Chest X-rays", "classification", "hold-out", 900, "CXR"]]
RESULTS = [["Study", "Model", "Metric", "Score"],
           ["Kim 2023", "Ours", "Dice", 0.81], ["Kim 2023", "U-Net", "Dice", None],
           ["Kim 2023", "Ours", "Dice", 0.72], ["Kim 2023", "U-Net", "Dice", 0.70],
           ["Lee 2022", "Ours", "Dice", 0.90], ["Lee 2022", "nnU-Net", "Dice", 0.89],
           ["Lee 2022", "U-Net", "Dice", 0.85],
           ["Ota 2022", "Ours", "Dice", 0.93], ["Ota 2022", "U-Net", "Dice", 0.925],
           ["Park 2021", "Ours", "Accuracy", 0.91], ["Park 2021", "ResNet", "Accuracy", 0.90],
           ["Roy 2021", "Ours", "Accuracy", 0.88], ["Roy 2021", "DenseNet", "Accuracy", 0.87]]


def write_long_sheet(path: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Papers"
    for row in PAPERS:
        ws.append(row)
    ws = wb.create_sheet("Results")
    for row in RESULTS:
        ws.append(row)
    wb.save(path)
    return path
