/** One attribute the profile acted on, and how many times (it may sit in several sequence items). */
export interface ReportAttribute {
  /** '(gggg,eeee)'. */
  tag: string;
  name: string;
  count: number;
}

/**
 * Where burned-in text was found (in this frame) and blanked (in every frame), in pixels of the stored image.
 * What the text said is not kept: it is what was to be removed.
 */
export interface ReportRegion {
  frame: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Not checked (the file is not of a kind that carries text), none found, blanked, found and not cleanable, or
 * not checkable: the file may carry text and its pixels could not be read by OCR (it is then not de-identified).
 */
export type BurnedInStatus = 'not-checked' | 'none-found' | 'blanked' | 'not-cleanable' | 'not-checkable';

/** What de-identifying one file did: the record kept with the upload and shown to its owner. */
export interface DeidentificationReport {
  /** The profile applied. */
  profile: string;
  /** The PS3.3 IOD whose Types chose between the combined action codes, when known. */
  iod: string | null;
  removed: ReportAttribute[];
  emptied: ReportAttribute[];
  replaced: ReportAttribute[];
  /** Attributes whose UIDs were replaced, and how many distinct UIDs were. */
  uidAttributes: ReportAttribute[];
  uidsRemapped: number;
  privateTagsDropped: number;
  /** Burned-in text: not checked, none found, blanked (with where), found and not cleanable, or not checkable. */
  burnedInText: BurnedInStatus;
  /** Why burned-in text could not be checked, when it could not ("burned-in text could not be checked: …"). */
  burnedInReason?: string;
  burnedInRegions: ReportRegion[];
  /** Burned In Annotation (0028,0301) as stored: YES means text may still be in the pixels. */
  burnedInAnnotation: string | null;
  /** The file's visible name, made from de-identified values only (never the name the client sent). */
  fileName: string | null;
  /** Rectangles members drew and had blanked in every frame, with when (absent in reports made before). */
  blankedRegions?: BlankedRegion[];
  /** Compressed pixel data was decoded to blank it and is stored as Explicit VR Little Endian. */
  pixelDataDecompressed?: boolean;
  /** Who confirmed, after blanking by hand, that no other burned-in text remains, and when (ISO 8601). */
  confirmedClean?: { userId: string; name: string; at: string };
}

/** A rectangle a member had blanked, in stored pixels, and when (ISO 8601). */
export interface BlankedRegion {
  x: number;
  y: number;
  width: number;
  height: number;
  blankedAt: string;
}

/** The profile's name as reports give it. */
export const REPORT_PROFILE = 'DICOM PS3.15 Table E.1-1 Basic Application Level Confidentiality Profile';

/**
 * Whether the stored file may still identify someone through its pixels: text found and not blanked, claimed and
 * not found, or possible and never checked (the OCR engine could not run): it fails closed.
 */
export function pixelsMayIdentify(report: DeidentificationReport): boolean {
  if (report.confirmedClean) return false;
  return (
    report.burnedInText === 'not-cleanable' ||
    report.burnedInText === 'not-checkable' ||
    report.burnedInAnnotation === 'YES'
  );
}

/** A report of nothing done (a file kept as sent, or not DICOM). */
export function emptyReport(): DeidentificationReport {
  return {
    profile: REPORT_PROFILE,
    iod: null,
    removed: [],
    emptied: [],
    replaced: [],
    uidAttributes: [],
    uidsRemapped: 0,
    privateTagsDropped: 0,
    burnedInText: 'not-checked',
    burnedInRegions: [],
    burnedInAnnotation: null,
    fileName: null,
  };
}

type Kind = 'removed' | 'emptied' | 'replaced' | 'uid';

/** Collects the report while a file is rewritten; names are looked up once per attribute, at the end. */
export class ReportBuilder {
  private readonly lists = new Map<Kind, Map<string, number>>();
  private privates = 0;
  private readonly iod: string | undefined;
  private readonly nameOf: (tag: string) => string;
  constructor(iod: string | undefined, nameOf: (tag: string) => string) {
    this.iod = iod;
    this.nameOf = nameOf;
  }
  /** Notes one action on `tag` ('x00100010'). */
  record(kind: Kind, tag: string): void {
    let list = this.lists.get(kind);
    if (!list) this.lists.set(kind, (list = new Map()));
    list.set(tag, (list.get(tag) ?? 0) + 1);
  }
  /** Notes one private attribute dropped. */
  privateDropped(): void {
    this.privates++;
  }
  /** The finished report; `uids` is how many distinct UIDs were remapped. */
  result(uids: number, fileName: string): DeidentificationReport {
    const list = (kind: Kind): ReportAttribute[] =>
      [...(this.lists.get(kind) ?? [])]
        .map(([tag, count]) => ({
          tag: `(${tag.slice(1, 5)},${tag.slice(5)})`.toUpperCase(),
          name: this.nameOf(tag),
          count,
        }))
        .sort((a, b) => a.tag.localeCompare(b.tag));
    return {
      ...emptyReport(),
      iod: this.iod ?? null,
      removed: list('removed'),
      emptied: list('emptied'),
      replaced: list('replaced'),
      uidAttributes: list('uid'),
      uidsRemapped: uids,
      privateTagsDropped: this.privates,
      fileName,
    };
  }
}
