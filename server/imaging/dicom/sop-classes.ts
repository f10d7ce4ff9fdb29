/**
 * Names of the storage SOP classes (PS3.4 Annex B, PS3.6 Annex A) an upload is most likely to be. A UID
 * not listed here is shown as the UID itself; the list needs no completeness to be right.
 */
const names: Record<string, string> = {
  '1.2.840.10008.1.3.10': 'Media Storage Directory',
  '1.2.840.10008.5.1.4.1.1.1': 'Computed Radiography Image',
  '1.2.840.10008.5.1.4.1.1.1.1': 'Digital X-Ray Image (For Presentation)',
  '1.2.840.10008.5.1.4.1.1.1.1.1': 'Digital X-Ray Image (For Processing)',
  '1.2.840.10008.5.1.4.1.1.1.2': 'Digital Mammography X-Ray Image (For Presentation)',
  '1.2.840.10008.5.1.4.1.1.1.2.1': 'Digital Mammography X-Ray Image (For Processing)',
  '1.2.840.10008.5.1.4.1.1.1.3': 'Digital Intra-Oral X-Ray Image (For Presentation)',
  '1.2.840.10008.5.1.4.1.1.2': 'CT Image',
  '1.2.840.10008.5.1.4.1.1.2.1': 'Enhanced CT Image',
  '1.2.840.10008.5.1.4.1.1.3.1': 'Ultrasound Multi-frame Image',
  '1.2.840.10008.5.1.4.1.1.4': 'MR Image',
  '1.2.840.10008.5.1.4.1.1.4.1': 'Enhanced MR Image',
  '1.2.840.10008.5.1.4.1.1.4.2': 'MR Spectroscopy',
  '1.2.840.10008.5.1.4.1.1.6.1': 'Ultrasound Image',
  '1.2.840.10008.5.1.4.1.1.7': 'Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.7.1': 'Multi-frame Single Bit Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.7.2': 'Multi-frame Grayscale Byte Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.7.3': 'Multi-frame Grayscale Word Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.7.4': 'Multi-frame True Color Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.9.1.1': '12-lead ECG Waveform',
  '1.2.840.10008.5.1.4.1.1.9.1.2': 'General ECG Waveform',
  '1.2.840.10008.5.1.4.1.1.9.1.3': 'Ambulatory ECG Waveform',
  '1.2.840.10008.5.1.4.1.1.9.2.1': 'Hemodynamic Waveform',
  '1.2.840.10008.5.1.4.1.1.9.3.1': 'Cardiac Electrophysiology Waveform',
  '1.2.840.10008.5.1.4.1.1.9.4.1': 'Basic Voice Audio Waveform',
  '1.2.840.10008.5.1.4.1.1.11.1': 'Grayscale Softcopy Presentation State',
  '1.2.840.10008.5.1.4.1.1.12.1': 'X-Ray Angiographic Image',
  '1.2.840.10008.5.1.4.1.1.12.2': 'X-Ray Radiofluoroscopic Image',
  '1.2.840.10008.5.1.4.1.1.20': 'Nuclear Medicine Image',
  '1.2.840.10008.5.1.4.1.1.66': 'Raw Data',
  '1.2.840.10008.5.1.4.1.1.66.1': 'Spatial Registration',
  '1.2.840.10008.5.1.4.1.1.66.4': 'Segmentation',
  '1.2.840.10008.5.1.4.1.1.77.1.1': 'VL Endoscopic Image',
  '1.2.840.10008.5.1.4.1.1.77.1.2': 'VL Microscopic Image',
  '1.2.840.10008.5.1.4.1.1.77.1.4': 'VL Photographic Image',
  '1.2.840.10008.5.1.4.1.1.77.1.5.1': 'Ophthalmic Photography 8 Bit Image',
  '1.2.840.10008.5.1.4.1.1.77.1.6': 'VL Whole Slide Microscopy Image',
  '1.2.840.10008.5.1.4.1.1.88.11': 'Basic Text SR',
  '1.2.840.10008.5.1.4.1.1.88.22': 'Enhanced SR',
  '1.2.840.10008.5.1.4.1.1.88.33': 'Comprehensive SR',
  '1.2.840.10008.5.1.4.1.1.88.34': 'Comprehensive 3D SR',
  '1.2.840.10008.5.1.4.1.1.88.50': 'Mammography CAD SR',
  '1.2.840.10008.5.1.4.1.1.88.59': 'Key Object Selection Document',
  '1.2.840.10008.5.1.4.1.1.88.67': 'X-Ray Radiation Dose SR',
  '1.2.840.10008.5.1.4.1.1.104.1': 'Encapsulated PDF',
  '1.2.840.10008.5.1.4.1.1.128': 'Positron Emission Tomography Image',
  '1.2.840.10008.5.1.4.1.1.130': 'Enhanced PET Image',
  '1.2.840.10008.5.1.4.1.1.481.1': 'RT Image',
  '1.2.840.10008.5.1.4.1.1.481.2': 'RT Dose',
  '1.2.840.10008.5.1.4.1.1.481.3': 'RT Structure Set',
  '1.2.840.10008.5.1.4.1.1.481.4': 'RT Beams Treatment Record',
  '1.2.840.10008.5.1.4.1.1.481.5': 'RT Plan',
  '1.2.840.10008.5.1.4.1.1.481.8': 'RT Ion Plan',
};

/**
 * The name of a SOP class UID, or undefined for one not in the list.
 * @example sopClassName('1.2.840.10008.5.1.4.1.1.481.5') // 'RT Plan'
 */
export function sopClassName(uid: string | undefined): string | undefined {
  return uid ? names[uid] : undefined;
}
