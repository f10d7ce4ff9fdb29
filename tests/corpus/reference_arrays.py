"""Reference decodes for the real-world corpus suite, made with Debian's pydicom and nibabel.

Reads a JSON list of {"id", "path", "kind"} on stdin ("kind" is "dicom" or "nifti"), writes each decoded
image to OUT_DIR/<id>.f32 (little-endian float32, C order: frames, rows, columns, channels for DICOM;
x fastest for NIfTI, as the server's volumes run) and prints one JSON line per file saying what the
toolkit made of it. Run with /usr/bin/python3: nothing is downloaded, nothing is kept in the repository.
"""

import json
import os
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")

LOSSY_SYNTAXES = {
    "1.2.840.10008.1.2.4.50",
    "1.2.840.10008.1.2.4.51",
    "1.2.840.10008.1.2.4.81",
    "1.2.840.10008.1.2.4.91",
    "1.2.840.10008.1.2.4.203",
}


def rescale_of(ds):
    """Slope and intercept from the top level, else the shared or first per-frame functional group."""
    if "RescaleSlope" in ds or "RescaleIntercept" in ds:
        return float(ds.get("RescaleSlope", 1) or 1), float(ds.get("RescaleIntercept", 0) or 0)
    for name in ("SharedFunctionalGroupsSequence", "PerFrameFunctionalGroupsSequence"):
        groups = ds.get(name)
        if groups:
            transform = groups[0].get("PixelValueTransformationSequence")
            if transform:
                item = transform[0]
                return float(item.get("RescaleSlope", 1) or 1), float(item.get("RescaleIntercept", 0) or 0)
    return 1.0, 0.0


def dicom_reference(path, out):
    import pydicom
    from pydicom.pixel_data_handlers.util import apply_color_lut, convert_color_space

    answer = {"kind": "dicom"}
    try:
        ds = pydicom.dcmread(path)
        answer["read"] = "plain"
    except Exception as plain_error:  # noqa: BLE001 - any failure means "try as toolkits do, forced"
        try:
            ds = pydicom.dcmread(path, force=True)
            # A forced read of something that is not DICOM gives a data set with nothing standard in it.
            if not any(elem.tag.group > 0x0002 and elem.keyword for elem in ds):
                raise ValueError("no standard attribute")
            answer["read"] = "forced"
        except Exception as error:  # noqa: BLE001
            answer["read"] = None
            answer["error"] = f"{type(plain_error).__name__}: {plain_error}; forced: {error}"
            return answer
    meta = getattr(ds, "file_meta", None)
    syntax = str(meta.get("TransferSyntaxUID", "")) if meta is not None else ""
    answer["syntax"] = syntax
    answer["sop_class"] = str(ds.get("SOPClassUID", ""))
    answer["modality"] = str(ds.get("Modality", ""))
    answer["has_pixels"] = "PixelData" in ds
    answer["photometric"] = str(ds.get("PhotometricInterpretation", ""))
    answer["lossy"] = syntax in LOSSY_SYNTAXES or str(ds.get("LossyImageCompression", "")) == "01"
    if not answer["has_pixels"]:
        return answer
    try:
        arr = ds.pixel_array
    except Exception as error:  # noqa: BLE001
        answer["decoded"] = False
        answer["error"] = f"{type(error).__name__}: {error}"
        return answer
    photometric = answer["photometric"]
    frames = int(ds.get("NumberOfFrames", 1) or 1)
    samples = int(ds.get("SamplesPerPixel", 1) or 1)
    if photometric == "PALETTE COLOR":
        arr = apply_color_lut(arr, ds)
        samples = 3
        answer["colour"] = "palette"
    elif samples == 3 and photometric in ("YBR_FULL", "YBR_FULL_422"):
        arr = convert_color_space(arr, "YBR_FULL", "RGB")
        answer["colour"] = "ybr"
    elif samples == 1:
        slope, intercept = rescale_of(ds)
        arr = arr.astype(np.float64) * slope + intercept
    shape = (frames, int(ds.Rows), int(ds.Columns), samples)
    arr = np.asarray(arr, dtype=np.float32).reshape(shape)
    arr.astype("<f4").tofile(out)
    answer["decoded"] = True
    answer["shape"] = list(shape)
    return answer


def nifti_reference(path, out):
    import nibabel as nib

    answer = {"kind": "nifti"}
    try:
        image = nib.load(path)
        answer["read"] = "plain"
    except Exception as error:  # noqa: BLE001
        answer["read"] = None
        answer["error"] = f"{type(error).__name__}: {error}"
        return answer
    answer["has_pixels"] = True
    answer["lossy"] = False
    try:
        data = np.asanyarray(image.dataobj)
        if np.iscomplexobj(data) or data.dtype.names:
            raise TypeError(f"{data.dtype} voxels")
        data = image.get_fdata(dtype=np.float64)
    except Exception as error:  # noqa: BLE001
        answer["decoded"] = False
        answer["error"] = f"{type(error).__name__}: {error}"
        return answer
    answer["shape"] = list(data.shape)
    # x fastest, as the server's volumes run; non-finite voxels count as 0 there.
    flat = np.nan_to_num(data.ravel(order="F"), nan=0.0, posinf=0.0, neginf=0.0)
    flat.astype("<f4").tofile(out)
    answer["decoded"] = True
    return answer


def main():
    out_dir = sys.argv[1]
    for entry in json.load(sys.stdin):
        out = os.path.join(out_dir, f"{entry['id']}.f32")
        reference = dicom_reference if entry["kind"] == "dicom" else nifti_reference
        try:
            answer = reference(entry["path"], out)
        except Exception as error:  # noqa: BLE001 - one odd file must not stop the list
            answer = {"kind": entry["kind"], "read": None, "error": f"{type(error).__name__}: {error}"}
        answer["id"] = entry["id"]
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
