import { parseDicom, stringValue } from './dicom-dataset.ts';

// Attributes whose values name or point to the patient, the visit or the instance (PS3.15 Table E.1-1): a client's
// file name that repeats one of them identifies as much as the attribute itself.
const IDENTIFYING_TAGS = [
  'x00100010', // Patient's Name
  'x00100020', // Patient ID
  'x00100021', // Issuer of Patient ID
  'x00101000', // Other Patient IDs
  'x00101001', // Other Patient Names
  'x00101005', // Patient's Birth Name
  'x00101060', // Patient's Mother's Birth Name
  'x00101090', // Medical Record Locator
  'x00100030', // Patient's Birth Date
  'x00080050', // Accession Number
  'x00200010', // Study ID
  'x00080020', // Study Date
  'x00080021', // Series Date
  'x00080022', // Acquisition Date
  'x00080023', // Content Date
  'x00080080', // Institution Name
  'x00080090', // Referring Physician's Name
  'x00081050', // Performing Physician's Name
  'x00081070', // Operators' Name
  'x0020000d', // Study Instance UID
  'x0020000e', // Series Instance UID
  'x00080018', // SOP Instance UID
] as const;

const DEFLATED = Buffer.from('1.2.840.10008.1.2.1.99', 'latin1');

/**
 * The identifying values a DICOM file carries (patient name, IDs, accession number, dates, instance UIDs), as
 * written, each value of a multi-valued attribute on its own. Undefined when they cannot be read cheaply: a file
 * that does not parse, or a deflated one (inflating it whole is work for the imaging pool, not for a name).
 * @example dicomIdentifyingValues(bytes) // ['DOE^JOHN', 'MRN778899', '19700101', …]
 */
export function dicomIdentifyingValues(bytes: Uint8Array): string[] | undefined {
  if (Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 4096)).includes(DEFLATED)) return undefined;
  let dataSet;
  try {
    dataSet = parseDicom(bytes);
  } catch {
    return undefined;
  }
  const values: string[] = [];
  for (const tag of IDENTIFYING_TAGS) {
    const element = dataSet.elements[tag];
    if (!element || element.length === 0 || element.length > 1024) continue;
    const whole = stringValue(dataSet, tag);
    if (whole)
      values.push(
        ...whole
          .split('\\')
          .map((value) => value.trim())
          .filter(Boolean),
      );
  }
  return values;
}
