import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { UploadItem } from '../../../contract/uploads.ts';
import { $detailsItem, closeDetails, openDetails } from '../../stores/details.ts';
import { $imageLinkError, imageLinkOf, openImageLink } from '../../stores/image-link.ts';
import { $library, loadLibrary, loadMoreLibrary } from '../../stores/library.ts';
import DetailsModal from './DetailsModal.tsx';
import LibraryGrid from './LibraryGrid.tsx';
import StorageUsageMeter from './StorageUsageMeter.tsx';
import UploadControls from './UploadControls.tsx';

/** Typing pause after which the search is sent to the server. */
const SEARCH_DELAY_MS = 250;

/** /dashboard/images: search, upload, the grid of cards (paged from the server) and the details modal. */
export default function ImagesView() {
  const state = useStore($library);
  const detailsItem = useStore($detailsItem);
  const linkError = useStore($imageLinkError);
  const [search, setSearch] = useState(state.search);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    void loadLibrary();
    // A mailed link (?workspace=…&image=…) opens that image's details; the address then drops the query, so
    // closing the modal and reloading shows the grid.
    const link = imageLinkOf(window.location.search);
    if (link) {
      void openImageLink(link).then(() =>
        window.history.replaceState(window.history.state, '', window.location.pathname),
      );
    }
    return () => {
      closeDetails();
      $imageLinkError.set('');
    };
  }, []);

  useEffect(() => {
    if (search === $library.get().search) return;
    const timer = setTimeout(() => void loadLibrary(search), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const open = (item: UploadItem, button: HTMLElement) => {
    opener.current = button;
    void openDetails(item);
  };
  const close = () => {
    closeDetails();
    // Focus goes back to the Details button that opened the modal, or to the page's title when a link opened it.
    (opener.current ?? document.getElementById('images-title'))?.focus();
  };
  const firstLoad = state.loading && !state.loaded;

  return (
    <section aria-labelledby="images-title" className="dash-section">
      <h1 id="images-title" tabIndex={-1}>
        My Images
      </h1>
      <div className="dash-toolbar">
        <div className="dash-field">
          <label htmlFor="image-search">Search images</label>
          <input
            id="image-search"
            type="search"
            value={search}
            placeholder="Search by name"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      </div>
      <UploadControls />
      <StorageUsageMeter />
      {linkError && (
        <p role="alert" className="dash-error">
          {linkError}
        </p>
      )}
      {state.error && (
        <p role="alert" className="dash-error">
          {state.error}
        </p>
      )}
      {firstLoad && <p role="status">Loading images...</p>}
      {state.loaded && state.items.length === 0 && !state.loading && !state.error && (
        <p className="dash-empty">No images found.</p>
      )}
      {state.items.length > 0 && (
        <LibraryGrid items={state.items} complete={!state.next} onNearEnd={loadMoreLibrary} onDetails={open} />
      )}
      <p role="status" className="visually-hidden">
        {state.loading && state.loaded ? 'Loading more images...' : ''}
      </p>
      {detailsItem && <DetailsModal item={detailsItem} onClose={close} />}
    </section>
  );
}
