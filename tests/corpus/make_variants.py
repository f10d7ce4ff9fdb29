"""Writes, with Debian's pydicom, variants of its own test files that its folder lacks: PALETTE COLOR images
(8-bit indices, 16-bit and 8-bit lookup tables, and segmented ones), an enhanced multi-frame image whose rescale lives only in
its functional groups, and uncompressed RGB and YBR_FULL colour in both planar configurations. Usage: make_variants.py SOURCE_DIR OUT_DIR; prints the file names it wrote.
"""

import os
import sys
import warnings

import numpy as np
import pydicom
from pydicom.dataset import Dataset
from pydicom.sequence import Sequence

warnings.simplefilter("ignore")


def palette(source, out, lut_bits):
    ds = pydicom.dcmread(source)
    image = ds.pixel_array.astype(np.float64)
    indices = np.round((image - image.min()) / max(1.0, image.max() - image.min()) * 255).astype(np.uint8)
    ds.PhotometricInterpretation = "PALETTE COLOR"
    ds.SamplesPerPixel = 1
    ds.BitsAllocated = 8
    ds.BitsStored = 8
    ds.HighBit = 7
    ds.PixelRepresentation = 0
    for name in ("RescaleSlope", "RescaleIntercept", "WindowCenter", "WindowWidth"):
        if name in ds:
            delattr(ds, name)
    ramp = np.arange(256, dtype=np.float64) / 255
    top = 2**lut_bits - 1
    tables = {"red": ramp, "green": 1 - ramp, "blue": np.abs(np.sin(ramp * np.pi))}
    for k, curve in enumerate(tables.values()):
        # Descriptors are US here (their VR is ambiguous in the dictionary); 8-bit entries are still stored
        # in 16-bit words (PS3.3 C.7.6.3.1.6), one entry per word.
        ds.add_new(0x00281101 + k, "US", [256, 0, lut_bits])
        ds.add_new(0x00281201 + k, "OW", np.round(curve * top).astype("<u2").tobytes())
    ds.PixelData = indices.tobytes()
    ds.file_meta.TransferSyntaxUID = pydicom.uid.ExplicitVRLittleEndian
    ds.save_as(out, write_like_original=False)


def segmented_palette(source, out):
    """A PALETTE COLOR image whose tables are given only as segments (PS3.3 C.7.9.2): discrete and linear."""
    palette(source, out, 16)
    ds = pydicom.dcmread(out)
    segments = {
        "red": [0, 1, 0, 1, 255, 65535],
        "green": [0, 1, 65535, 1, 255, 0],
        "blue": [0, 128] + [i * 512 for i in range(128)] + [1, 128, 0],
    }
    for k, words in enumerate(segments.values()):
        del ds[0x00281201 + k]
        ds.add_new(0x00281221 + k, "OW", np.array(words, dtype="<u2").tobytes())
    ds.save_as(out, write_like_original=False)


def enhanced(source, out):
    ds = pydicom.dcmread(source)
    image = ds.pixel_array
    frames = np.stack([image, image[::-1], image[:, ::-1]])
    ds.NumberOfFrames = 3
    ds.PixelData = frames.astype(image.dtype).tobytes()
    slope, intercept = 0.5, -100.0
    for name in ("RescaleSlope", "RescaleIntercept", "RescaleType"):
        if name in ds:
            delattr(ds, name)
    transform = Dataset()
    transform.RescaleSlope = slope
    transform.RescaleIntercept = intercept
    transform.RescaleType = "US"
    shared = Dataset()
    shared.PixelValueTransformationSequence = Sequence([transform])
    ds.SharedFunctionalGroupsSequence = Sequence([shared])
    ds.PerFrameFunctionalGroupsSequence = Sequence([Dataset() for _ in range(3)])
    ds.SOPClassUID = "1.2.840.10008.5.1.4.1.1.2.1"
    ds.file_meta.MediaStorageSOPClassUID = ds.SOPClassUID
    ds.file_meta.TransferSyntaxUID = pydicom.uid.ExplicitVRLittleEndian
    ds.save_as(out, write_like_original=False)


def colour(source, out, planar, ybr):
    ds = pydicom.dcmread(source)
    rgb = ds.pixel_array
    if ybr:
        from pydicom.pixel_data_handlers.util import convert_color_space

        rgb = convert_color_space(rgb, "RGB", "YBR_FULL")
        ds.PhotometricInterpretation = "YBR_FULL"
    ds.PlanarConfiguration = planar
    # Planar configuration 1 stores all red, then all green, then all blue samples (PS3.3 C.7.6.3.1.3).
    ds.PixelData = (np.moveaxis(rgb, -1, 0) if planar else rgb).astype(np.uint8).tobytes()
    ds.file_meta.TransferSyntaxUID = pydicom.uid.ExplicitVRLittleEndian
    ds.save_as(out, write_like_original=False)


def main():
    source, out = sys.argv[1], sys.argv[2]
    made = {
        "palette-16bit-lut.dcm": lambda path: palette(os.path.join(source, "MR_small.dcm"), path, 16),
        "palette-8bit-lut.dcm": lambda path: palette(os.path.join(source, "CT_small.dcm"), path, 8),
        "palette-segmented-lut.dcm": lambda path: segmented_palette(os.path.join(source, "CT_small.dcm"), path),
        "enhanced-ct-shared-rescale.dcm": lambda path: enhanced(os.path.join(source, "CT_small.dcm"), path),
        "rgb-planar-1.dcm": lambda path: colour(os.path.join(source, "SC_rgb_jpeg_dcmd.dcm"), path, 1, False),
        "ybr-full-planar-1.dcm": lambda path: colour(os.path.join(source, "SC_rgb_jpeg_dcmd.dcm"), path, 1, True),
        "ybr-full.dcm": lambda path: colour(os.path.join(source, "SC_rgb_small_odd.dcm"), path, 0, True),
    }
    for name, make in made.items():
        make(os.path.join(out, name))
        print(name)


if __name__ == "__main__":
    main()
