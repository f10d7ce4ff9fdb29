import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import {
  MAX_BLANKED_REGIONS,
  type BlankingRegion,
  type DeidentificationReportBody,
} from '../../../contract/deidentification.ts';
import type { UploadItem } from '../../../contract/uploads.ts';
import { blankingFrame, blankRegions } from '../../stores/blanking.ts';
import { showSlice } from '../../stores/imaging.ts';
import './blanking.css';

type Frame =
  { status: 'loading' } | { status: 'ready'; url: string; width: number; height: number } | { status: 'failed' };

const regionText = (r: BlankingRegion) => `left ${r.x}, top ${r.y}, ${r.width} × ${r.height} pixels`;

/** `r` moved and resized by the deltas, kept inside a `width` × `height` image and at least one pixel wide and tall. */
function fit(r: BlankingRegion, width: number, height: number): BlankingRegion {
  const w = Math.min(Math.max(1, Math.round(r.width)), width);
  const h = Math.min(Math.max(1, Math.round(r.height)), height);
  return {
    x: Math.min(Math.max(0, Math.round(r.x)), width - w),
    y: Math.min(Math.max(0, Math.round(r.y)), height - h),
    width: w,
    height: h,
  };
}

/**
 * Regions to blank, drawn on the first frame of a de-identified DICOM image as stored: with the mouse (drag on the
 * frame) or the keyboard (Add a region, then arrow keys on the frame move it and Shift+arrow keys resize it, or
 * type its numbers), listed with a Remove button each. Blanking is done by the server, in every frame, for good.
 */
export default function BlankingEditor({
  item,
  onBlanked,
}: {
  item: UploadItem;
  onBlanked: (report: DeidentificationReportBody) => void;
}) {
  const [frame, setFrame] = useState<Frame>({ status: 'loading' });
  const [regions, setRegions] = useState<BlankingRegion[]>([]);
  const [selected, setSelected] = useState(0);
  const [drag, setDrag] = useState<{ x: number; y: number } | undefined>();
  const [working, setWorking] = useState(false);
  const [message, setMessage] = useState<{ kind: 'status' | 'error'; text: string } | undefined>();
  const [announcement, setAnnouncement] = useState('');
  const [version, setVersion] = useState(0);
  const surface = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let current = true;
    let url: string | undefined;
    blankingFrame(item.stored_filename)
      .then(async (blob) => {
        const bitmap = await createImageBitmap(blob);
        url = URL.createObjectURL(blob);
        if (current) setFrame({ status: 'ready', url, width: bitmap.width, height: bitmap.height });
        bitmap.close();
      })
      .catch(() => current && setFrame({ status: 'failed' }));
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [item.stored_filename, version]);

  if (frame.status === 'loading') return <p role="status">Loading the frame to draw on...</p>;
  if (frame.status === 'failed') return <p className="dash-muted">This image has no frame regions can be drawn on.</p>;
  const { width, height } = frame;

  const update = (index: number, next: BlankingRegion) => {
    const fitted = fit(next, width, height);
    setRegions((list) => list.map((r, i) => (i === index ? fitted : r)));
    setAnnouncement(`Region ${index + 1}: ${regionText(fitted)}`);
  };

  const add = (region: BlankingRegion) => {
    if (regions.length >= MAX_BLANKED_REGIONS) return;
    const fitted = fit(region, width, height);
    setRegions((list) => [...list, fitted]);
    setSelected(regions.length);
    setAnnouncement(`Region ${regions.length + 1} added: ${regionText(fitted)}`);
  };

  const remove = (index: number) => {
    setRegions((list) => list.filter((_, i) => i !== index));
    setSelected((s) => Math.max(0, s > index ? s - 1 : Math.min(s, regions.length - 2)));
    setAnnouncement(`Region ${index + 1} removed`);
  };

  // A point of the frame under the pointer, in stored pixels.
  const pointAt = (event: PointerEvent) => {
    const box = surface.current!.getBoundingClientRect();
    return {
      x: Math.min(width, Math.max(0, ((event.clientX - box.left) / box.width) * width)),
      y: Math.min(height, Math.max(0, ((event.clientY - box.top) / box.height) * height)),
    };
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const r = regions[selected];
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    if (event.key === 'Delete' && r) {
      event.preventDefault();
      remove(selected);
      return;
    }
    const move = moves[event.key];
    if (!move || !r) return;
    event.preventDefault();
    // One pixel at a time, or a twentieth of the image with Alt.
    const step = event.altKey ? Math.max(1, Math.round(Math.max(width, height) / 20)) : 1;
    const [dx, dy] = [move[0] * step, move[1] * step];
    update(
      selected,
      event.shiftKey
        ? { ...r, width: r.width + dx, height: r.height + dy }
        : {
            ...r,
            x: Math.min(Math.max(0, r.x + dx), width - r.width),
            y: Math.min(Math.max(0, r.y + dy), height - r.height),
          },
    );
  };

  const submit = async () => {
    setWorking(true);
    setMessage(undefined);
    try {
      const outcome = await blankRegions(item.stored_filename, regions);
      if ('error' in outcome) {
        setMessage({ kind: 'error', text: outcome.error });
        return;
      }
      const count = regions.length;
      setRegions([]);
      setSelected(0);
      setMessage({ kind: 'status', text: `${count} ${count === 1 ? 'region' : 'regions'} blanked in every frame.` });
      onBlanked(outcome.report);
      void showSlice(item);
      setVersion((v) => v + 1);
    } finally {
      setWorking(false);
    }
  };

  const percent = (value: number, of: number) => `${(value / of) * 100}%`;
  const draft = drag && regions[selected];

  return (
    <div className="dash-blanking">
      <p id="blanking-help" className="dash-muted">
        Drag on the frame to draw a region, or choose Add a region. On the frame, arrow keys move the chosen region
        (Alt: by larger steps), Shift with arrow keys resizes it, Delete removes it. Blanking turns every pixel inside
        black in every frame of the stored file, for good.
      </p>
      <div
        ref={surface}
        className="dash-blanking-frame"
        role="group"
        tabIndex={0}
        aria-label={`First frame, ${width} × ${height} pixels: ${regions.length} ${regions.length === 1 ? 'region' : 'regions'} drawn`}
        aria-describedby="blanking-help"
        onKeyDown={onKeyDown}
        onPointerDown={(event) => {
          if (event.button !== 0 || regions.length >= MAX_BLANKED_REGIONS) return;
          const start = pointAt(event);
          surface.current!.setPointerCapture(event.pointerId);
          setDrag(start);
          add({ x: start.x, y: start.y, width: 1, height: 1 });
        }}
        onPointerMove={(event) => {
          if (!drag) return;
          const at = pointAt(event);
          const x = Math.min(drag.x, at.x);
          const y = Math.min(drag.y, at.y);
          update(selected, { x, y, width: Math.abs(at.x - drag.x), height: Math.abs(at.y - drag.y) });
        }}
        onPointerUp={() => {
          if (!drag) return;
          setDrag(undefined);
          // A click without a drag draws nothing: the one-pixel region it started is taken back.
          const r = regions[selected];
          if (r && r.width < 2 && r.height < 2) remove(selected);
        }}
      >
        <img src={frame.url} alt="" draggable={false} />
        {regions.map((r, i) => (
          <div
            key={i}
            className={`dash-blanking-box${i === selected ? ' dash-blanking-box-selected' : ''}`}
            style={{
              left: percent(r.x, width),
              top: percent(r.y, height),
              width: percent(r.width, width),
              height: percent(r.height, height),
            }}
            aria-hidden="true"
          >
            <span>{i + 1}</span>
          </div>
        ))}
      </div>
      <p className="dash-blanking-announcer" aria-live="polite">
        {draft ? '' : announcement}
      </p>
      <div className="dash-blanking-actions">
        <button
          type="button"
          disabled={regions.length >= MAX_BLANKED_REGIONS}
          onClick={() => {
            add({ x: width * 0.4, y: height * 0.4, width: width * 0.2, height: height * 0.2 });
            surface.current?.focus();
          }}
        >
          Add a region
        </button>
        <button type="button" disabled={regions.length === 0 || working} onClick={() => void submit()}>
          {working
            ? 'Blanking...'
            : regions.length === 0
              ? 'Blank regions'
              : `Blank ${regions.length} ${regions.length === 1 ? 'region' : 'regions'}`}
        </button>
      </div>
      {regions.length > 0 && (
        <ol className="dash-blanking-list" aria-label="Regions to blank">
          {regions.map((r, i) => (
            <li key={i} onFocus={() => setSelected(i)}>
              <fieldset>
                <legend>Region {i + 1}</legend>
                {(
                  [
                    ['x', 'Left'],
                    ['y', 'Top'],
                    ['width', 'Width'],
                    ['height', 'Height'],
                  ] as const
                ).map(([key, label]) => (
                  <label key={key}>
                    {label}
                    <input
                      type="number"
                      min={key === 'x' || key === 'y' ? 0 : 1}
                      max={key === 'x' || key === 'width' ? width : height}
                      value={r[key]}
                      onChange={(event) => {
                        const value = Number(event.target.value);
                        if (Number.isFinite(value)) update(i, { ...r, [key]: value });
                      }}
                    />
                  </label>
                ))}
                <button
                  type="button"
                  className="dash-quiet"
                  onClick={() => remove(i)}
                  aria-label={`Remove region ${i + 1}`}
                >
                  Remove
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
      )}
      {message?.kind === 'status' && <p role="status">{message.text}</p>}
      {message?.kind === 'error' && (
        <p role="alert" className="dash-error">
          {message.text}
        </p>
      )}
    </div>
  );
}
