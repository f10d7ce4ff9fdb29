import { useStore } from '@nanostores/react';
import { $keepOriginal, setKeepOriginal } from '../../stores/deidentification.ts';
import './imaging.css';

/** The upload option for users who must keep DICOM patient data: unchecked, files are de-identified on arrival. */
export default function KeepOriginalOption() {
  const keep = useStore($keepOriginal);
  return (
    <label className="imaging-keep-original">
      <input type="checkbox" checked={keep} onChange={(event) => setKeepOriginal(event.target.checked)} /> Keep patient
      data in DICOM files (skip de-identification)
    </label>
  );
}
