#!/usr/bin/python3
"""Writes the independent QC cases: Debian's real example images, clean and degraded.

The degradations here are written from their physical description in numpy/scipy, apart from the
engine's own corpus generator (bench/qc-corpus/degrade.ts) and its parameters, so the engine is judged on
artefacts it was not fitted on. Each case is saved the way a scanner or converter would hand it over:
DICOM (the original data set with new uncompressed pixel data, rescale kept) or NIfTI (the original
affine), and listed in manifest.json as {file, family, kind, strength, source}.

Usage: make_cases.py OUT_DIR [SEED]
"""

import copy as copy_module
import json
import os
import subprocess
import sys
import tempfile
import warnings

import nibabel as nib
import numpy as np
import pydicom
from pydicom.uid import ExplicitVRLittleEndian
from scipy import ndimage

warnings.filterwarnings("ignore")

PYDICOM = "/usr/lib/python3/dist-packages/pydicom/data/test_files"
NIBABEL = "/usr/lib/python3/dist-packages/nibabel/tests/data"
NICOM = "/usr/lib/python3/dist-packages/nibabel/nicom/tests/data"
# scikit-image's immunohistochemistry section (Debian's python3-skimage): the one real stained slide here.
SKIMAGE = "/usr/lib/python3/dist-packages/skimage/data"

# (path, family): every clean image of Debian's packages with a body in it, judged as its modality.
# (nibabel's 0.dcm and 1.dcm are left out: their pixels are a test pattern, not an image.)
SOURCES = [
    (f"{PYDICOM}/CT_small.dcm", "CT"),
    (f"{PYDICOM}/693_J2KI.dcm", "CT"),
    (f"{PYDICOM}/J2K_pixelrep_mismatch.dcm", "CT"),
    (f"{PYDICOM}/MR_small.dcm", "MR"),
    (f"{NICOM}/slicethickness_empty_string.dcm", "MR"),
    ("/usr/share/doc/dicom3tools/examples/0051.dcm", "MR"),
    (f"{NIBABEL}/anatomical.nii", "MR"),
    (f"{NIBABEL}/example4d.nii.gz", "MR"),
    (f"{PYDICOM}/JPEG2000.dcm", "NM"),
    ("/usr/share/doc/libgdcm3.0/examples/00191113.dcm", "XR"),
    (f"{SKIMAGE}/ihc.png", "SM"),
]

KINDS = {
    "CT": ["noise", "blur", "motion", "streaks", "rings", "clipping", "calibration"],
    "MR": ["noise", "blur", "motion", "ghosting", "clipping", "wrap-around"],
    "NM": ["noise", "blur", "clipping"],
    "XR": ["noise", "blur", "motion", "clipping", "under-exposure", "over-exposure"],
    "SM": ["blur", "colour-cast", "pen-marks", "blank-slide", "under-exposure", "over-exposure"],
}


def foreground(img):
    """Voxels above Otsu-like midpoint of the 2nd and 98th percentiles: the body, roughly."""
    lo, hi = np.percentile(img, [2, 98])
    return img > lo + 0.25 * (hi - lo)


def per_slice(img, fn):
    """Applies fn to each 2D slice of a (z, y, x) stack."""
    return np.stack([fn(s) for s in img])


def motion_kernel(length, angle):
    """A line of `length` pixels at `angle` radians: the blur of a straight movement during exposure."""
    size = length | 1
    k = np.zeros((size, size))
    c = size // 2
    for t in np.linspace(-c, c, 4 * size):
        k[int(round(c + t * np.sin(angle))), int(round(c + t * np.cos(angle)))] = 1
    return k / k.sum()


def in_k_space(img, change):
    """Each slice's magnitude image after change(K) of its centred k-space: an artefact of acquisition."""

    def one(s):
        k = np.fft.fftshift(np.fft.fft2(s))
        return np.abs(np.fft.ifft2(np.fft.ifftshift(change(k, s))))

    return per_slice(img, one)


def lines(axis, index):
    """The k-space lines `index` along the phase axis of a slice (0: rows, y; 1: columns, x)."""
    return (index, slice(None)) if axis == 0 else (slice(None), index)


def degrade(img, family, kind, strength, rng, phase=0):
    """The degraded copy of img (z, y, x), in modality units (HU for CT); phase is the slice's phase axis."""
    strong = strength == "strong"
    fg = foreground(img)
    spread = float(np.std(img[fg])) if fg.any() else float(np.std(img)) or 1.0
    level = float(np.median(img[fg])) if fg.any() else float(np.mean(img))
    out = img.astype(np.float64).copy()
    if kind == "noise":
        if family == "CT":
            return out + rng.normal(0, 80 if strong else 25, out.shape)
        if family == "MR":
            s = (0.15 if strong else 0.05) * level
            return np.hypot(out + rng.normal(0, s, out.shape), rng.normal(0, s, out.shape))
        if family == "NM":
            scale = (0.05 if strong else 0.5) * 100 / max(level, 1e-6)
            return rng.poisson(np.clip(out, 0, None) * scale) / scale
        return out + rng.normal(0, (0.2 if strong else 0.05) * spread, out.shape)
    if kind == "blur":
        sigma = (3.0 if strong else 1.0) * max(1, min(out.shape[1:]) / 256)
        return per_slice(out, lambda s: ndimage.gaussian_filter(s, sigma))
    if kind == "motion" and family == "MR":
        # The head moved (shifted and turned) while the last lines of k-space along the phase axis were read:
        # those lines hold the moved head, the rest the head where it was.
        scale = max(1, min(out.shape[1:]) / 256)
        share, shift, angle = (0.4, 8, 6) if strong else (0.15, 3, 2)

        def moved(k, s):
            other = ndimage.shift(ndimage.rotate(s, angle, reshape=False, order=1), shift * scale, order=1)
            late = np.arange(int(s.shape[phase] * (1 - share)), s.shape[phase])
            k[lines(phase, late)] = np.fft.fftshift(np.fft.fft2(other))[lines(phase, late)]
            return k

        return in_k_space(out, moved)
    if kind == "motion":
        length = int((15 if strong else 5) * max(1, min(out.shape[1:]) / 256))
        k = motion_kernel(max(3, length), rng.uniform(0, np.pi))
        return per_slice(out, lambda s: ndimage.convolve(s, k, mode="nearest"))
    if kind == "clipping":
        top = np.percentile(out[fg], 60 if strong else 95)
        return np.minimum(out, top)
    if kind == "calibration":
        return out + (250 if strong else 40)
    if kind == "streaks":
        # Metal: a dense point in the body, dark and bright bands fanning out from it along many angles.
        z, y, x = np.nonzero(fg)
        i = rng.integers(len(y))
        cy, cx = y[i], x[i]
        yy, xx = np.mgrid[: out.shape[1], : out.shape[2]]
        theta = np.arctan2(yy - cy, xx - cx)
        r = np.hypot(yy - cy, xx - cx) + 1
        bands = np.cos(theta * 9 + rng.uniform(0, 6)) * np.cos(theta * 23)
        amp = 300 if strong else 60
        art = amp * np.sign(bands) * (np.abs(bands) > 0.7) * np.exp(-r / (out.shape[2] * 0.6))
        art[r < 4] = 2500
        return out + art[None]
    if kind == "rings":
        # A miscalibrated detector element: thin circles around the rotation centre.
        yy, xx = np.mgrid[: out.shape[1], : out.shape[2]]
        r = np.hypot(yy - out.shape[1] / 2, xx - out.shape[2] / 2)
        art = np.zeros_like(r)
        for radius in rng.uniform(0.08, 0.4, 4) * out.shape[2]:
            art += np.exp(-((r - radius) ** 2) / 2.0) * rng.choice([-1, 1])
        return out + (150 if strong else 30) * art[None]
    if kind == "ghosting":
        # Every n-th line of k-space along the phase axis weakened (an unstable gradient or receiver): ghosts
        # of the head at multiples of N/n along that axis, each of the weakening over n of its signal.
        every = int(rng.integers(3, 7))
        weakening = 0.8 if strong else 0.3

        def uneven(k, s):
            centre = lines(phase, [s.shape[phase] // 2])
            kept = k[centre].copy()
            k[lines(phase, slice(0, None, every))] *= 1 - weakening
            k[centre] = kept
            return k

        return in_k_space(out, uneven)
    if kind == "wrap-around":
        # A field of view narrower than the body along the phase-encoding axis (rows here): what lies
        # outside folds back onto the opposite side. The narrower field is centred on the body.
        rows = np.nonzero(fg.any(axis=(0, 2)))[0]
        top, bottom = (rows[0], rows[-1] + 1) if len(rows) else (0, out.shape[1])
        fov = max(4, int((bottom - top) * (0.7 if strong else 0.93)))
        start = (top + bottom - fov) // 2
        folded = np.zeros((out.shape[0], fov, out.shape[2]))
        for y in range(out.shape[1]):
            folded[:, (y - start) % fov] += out[:, y]
        return folded
    if kind == "under-exposure":
        lo = np.percentile(out, 1)
        return lo + (out - lo) * (0.15 if strong else 0.7)
    if kind == "over-exposure":
        lo, hi = np.percentile(out, [1, 99])
        return np.minimum(lo + (out - lo) * (3.0 if strong else 1.3), hi)
    raise ValueError(kind)


def degrade_slide(rgb, kind, strength, rng):
    """The degraded copy of a stained slide (y, x, 3), 0-255, as a scanner would get it wrong."""
    strong = strength == "strong"
    out = rgb.astype(np.float64)
    if kind == "blur":
        # Out of focus: the same Gaussian sigma as the grey blur, 2 or 6 px at 512.
        sigma = (3.0 if strong else 1.0) * max(1, min(out.shape[:2]) / 256)
        return np.stack([ndimage.gaussian_filter(out[..., c], sigma) for c in range(3)], -1)
    if kind == "colour-cast":
        # A white balance that is off: the light source's colour multiplies every pixel, glass included.
        gain = np.array([1.0, 0.9, 0.75] if strong else [1.0, 0.98, 0.95])
        return out * gain[rng.permutation(3)]
    if kind == "pen-marks":
        # A marker line drawn on the glass: a band of saturated blue or green ink across the section.
        h, w = out.shape[:2]
        ink = np.array([[40, 60, 190], [40, 150, 70]][rng.integers(2)], dtype=np.float64)
        band = max(2, int(h * (0.1 if strong else 0.01)))
        top = rng.integers(0, h - band)
        out[top : top + band] = 0.3 * out[top : top + band] + 0.7 * ink
        return out
    if kind == "blank-slide":
        # The scanner missed the section: glass and a little debris.
        return np.full_like(out, 235) + rng.normal(0, 3 if strong else 6, out.shape)
    if kind == "under-exposure":
        return out * (0.45 if strong else 0.85)
    if kind == "over-exposure":
        return 255 - (255 - out) * (0.3 if strong else 0.85)
    raise ValueError(kind)


def clean_variants(vol, family, rng):
    """The clean image as it is, and as other clean acquisitions of it would come: a tighter field of view,
    half the matrix (averaged), turned a quarter, and for MR, whose units are arbitrary, a smaller scale (a
    larger one could pass the stored type's top)."""
    yield "original", vol
    if family == "SM":
        # A slide scanned at half the resolution, and turned; its field is the glass, not cropped to tissue.
        h, w = vol.shape[1:3]
        yield "half-matrix", vol[:, : h // 2 * 2, : w // 2 * 2].reshape(1, h // 2, 2, w // 2, 2, 3).mean(axis=(2, 4))
        yield "turned", np.rot90(vol, axes=(1, 2)).copy()
        return
    z, h, w = vol.shape
    # The field of view closes in on the body by half of the margin around it, never cutting the body.
    fg = foreground(vol)
    rows, cols = np.nonzero(fg.any(axis=(0, 2)))[0], np.nonzero(fg.any(axis=(0, 1)))[0]
    if len(rows) and len(cols):
        top, left = rows[0] // 2, cols[0] // 2
        bottom, right = h - (h - rows[-1] - 1) // 2, w - (w - cols[-1] - 1) // 2
        yield "cropped", vol[:, top:bottom, left:right]
    if min(h, w) >= 128:
        yield "half-matrix", vol[:, : h // 2 * 2, : w // 2 * 2].reshape(z, h // 2, 2, w // 2, 2).mean(axis=(2, 4))
    yield "turned", np.rot90(vol, axes=(1, 2)).copy()
    if family == "MR":
        yield "rescaled", vol * rng.choice([0.25, 0.5])


def raw_dicom(path):
    """The data set, its pixel data decompressed (gdcmconv when pydicom has no codec for it)."""
    ds = pydicom.dcmread(path)
    try:
        ds.pixel_array
        return ds
    except Exception:
        with tempfile.NamedTemporaryFile(suffix=".dcm") as tmp:
            subprocess.run(["gdcmconv", "--raw", path, tmp.name], check=True, capture_output=True)
            return pydicom.dcmread(tmp.name)


def load(path):
    """(z, y, x) modality values and a writer that saves values of the same shape like the original; an RGB
    picture is (1, y, x, 3) and is saved as PNG."""
    if path.endswith(".png"):
        from PIL import Image  # Debian's python3-pil, a dependency of python3-skimage

        rgb = np.asarray(Image.open(path).convert("RGB"), dtype=np.float64)

        def write(values, out, turned=False):
            Image.fromarray(np.clip(np.round(values[0]), 0, 255).astype(np.uint8)).save(out)

        return rgb[None], write, ".png"
    if path.endswith((".nii", ".nii.gz")):
        image = nib.load(path)
        data = np.asarray(image.dataobj, dtype=np.float64)
        if data.ndim == 4:
            data = data[..., 0]
        vol = np.transpose(data, (2, 1, 0))

        def write(values, out, turned=False):
            nib.save(nib.Nifti1Image(np.transpose(values, (2, 1, 0)).astype(np.float32), image.affine), out)

        return vol, write, ".nii"
    ds = raw_dicom(path)
    stored = ds.pixel_array.astype(np.float64)
    vol = stored if stored.ndim == 3 else stored[None]
    slope = float(ds.get("RescaleSlope", 1) or 1)
    intercept = float(ds.get("RescaleIntercept", 0) or 0)
    signed = int(ds.get("PixelRepresentation", 0)) == 1
    bits = int(ds.BitsStored)
    lo, hi = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)

    def write(values, out, turned=False):
        stored_values = np.clip(np.round((values - intercept) / slope), lo, hi)
        clone = copy_module.deepcopy(ds)
        dtype = np.int16 if signed else np.uint16
        clone.BitsAllocated = 16
        clone.Rows, clone.Columns = values.shape[1], values.shape[2]
        if turned and "InPlanePhaseEncodingDirection" in clone:
            # A quarter turn swaps rows and columns, and with them the axis the phase was encoded along.
            clone.InPlanePhaseEncodingDirection = {"ROW": "COL", "COL": "ROW"}.get(
                clone.InPlanePhaseEncodingDirection, clone.InPlanePhaseEncodingDirection
            )
        clone.PixelData = stored_values.astype(dtype).tobytes()
        clone.file_meta.TransferSyntaxUID = ExplicitVRLittleEndian
        clone.is_little_endian = True
        clone.is_implicit_VR = False
        clone.save_as(out, write_like_original=False)

    return vol * slope + intercept, write, ".dcm"


def phase_axis(path):
    """The slice axis (0 rows, 1 columns) a DICOM file encodes the phase along: columns when it says ROW."""
    if not path.endswith(".dcm"):
        return 0
    named = pydicom.dcmread(path, stop_before_pixels=True).get("InPlanePhaseEncodingDirection", "")
    return 1 if named == "ROW" else 0


def append_as_nifti(manifest, out_dir, values, case):
    """The CT case `case` (its manifest entry) again, listed after it, as dcm2niix hands a CT over: its
    Hounsfield units as 16-bit integers in a NIfTI, with no modality."""
    name = f"{len(manifest):03d}{case['file'][3:-len('.dcm')]}.nii"
    hu = np.clip(np.round(values), -32768, 32767).astype(np.int16)
    nib.save(nib.Nifti1Image(np.transpose(hu, (2, 1, 0)), np.eye(4)), os.path.join(out_dir, name))
    manifest.append({**case, "file": name, "source": f"{case['source']} as NIfTI"})


def main():
    out_dir = sys.argv[1]
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
    os.makedirs(out_dir, exist_ok=True)
    manifest = []
    for path, family in SOURCES:
        if not os.path.exists(path):
            continue
        try:
            vol, write, ext = load(path)
        except Exception as error:  # a source this machine cannot read is left out and said so
            print(f"skipped {path}: {error}", file=sys.stderr)
            continue
        source = os.path.basename(path)
        for variant, values in clean_variants(vol, family, rng):
            name = f"{len(manifest):03d}-{family}-clean-{variant}{ext}"
            write(values, os.path.join(out_dir, name), turned=variant == "turned")
            manifest.append(
                {"file": name, "family": family, "kind": "clean", "strength": None, "source": f"{source} {variant}"}
            )
            if family == "CT" and ext == ".dcm":
                append_as_nifti(manifest, out_dir, values, manifest[-1])
        phase = phase_axis(path)
        for kind in KINDS[family]:
            for strength in ("mild", "strong"):
                name = f"{len(manifest):03d}-{family}-{kind}-{strength}{ext}"
                degraded = (
                    degrade_slide(vol[0], kind, strength, rng)[None]
                    if family == "SM"
                    else degrade(vol, family, kind, strength, rng, phase)
                )
                write(degraded, os.path.join(out_dir, name))
                manifest.append(
                    {"file": name, "family": family, "kind": kind, "strength": strength, "source": source}
                )
                if family == "CT" and ext == ".dcm":
                    append_as_nifti(manifest, out_dir, degraded, manifest[-1])
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    images = {m["source"].split(" ")[0] for m in manifest}
    print(f"{len(manifest)} cases from {len(images)} images in {out_dir}")


if __name__ == "__main__":
    main()
