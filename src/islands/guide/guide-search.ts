/** One hit as Pagefind returns it, reduced to what the list shows. */
export interface SearchHit {
  url: string;
  title: string;
  excerpt: string;
}

interface PagefindSubResult {
  url: string;
  title: string;
  excerpt: string;
}
interface PagefindApi {
  search(term: string): Promise<{ results: { data(): Promise<{ sub_results: PagefindSubResult[] }> }[] }>;
}

/** Where `astro build` writes the Pagefind bundle (see astro.config.mjs). */
const PAGEFIND_URL = '/pagefind/pagefind.js';
let pagefind: Promise<PagefindApi> | undefined;
// Loaded on first use only: the index and its WebAssembly cost nothing to people who never search.
const loadPagefind = () => (pagefind ??= import(/* @vite-ignore */ PAGEFIND_URL) as Promise<PagefindApi>);

/**
 * Pagefind's URLs point at the built file; the site serves pages without the .html suffix.
 * @example siteUrl('/user-guide.html#glossary') // "/user-guide#glossary"
 */
export function siteUrl(url: string): string {
  return url.replace(/\.html(?=$|#)/, '');
}

/** Searches the guide and returns its matching sections, best first. */
export async function searchGuide(term: string): Promise<SearchHit[]> {
  if (!term.trim()) return [];
  const api = await loadPagefind();
  const { results } = await api.search(term);
  const pages = await Promise.all(results.slice(0, 5).map((r) => r.data()));
  return pages
    .flatMap((page) => page.sub_results)
    .slice(0, 8)
    .map((s) => ({ url: siteUrl(s.url), title: s.title, excerpt: s.excerpt }));
}

/** Renders hits into the results list; excerpts are Pagefind's, with <mark> around the matched words. */
function render(list: HTMLElement, status: HTMLElement, hits: SearchHit[], term: string): void {
  list.replaceChildren(
    ...hits.map((hit) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = hit.url;
      link.textContent = hit.title;
      const excerpt = document.createElement('p');
      excerpt.innerHTML = hit.excerpt;
      item.append(link, excerpt);
      return item;
    }),
  );
  status.textContent = term ? `${hits.length} result${hits.length === 1 ? '' : 's'} for "${term}"` : '';
}

/** Wires the guide's search form to Pagefind, searching as the person types. */
export function watchSearch(): void {
  const form = document.querySelector<HTMLFormElement>('[data-guide-search]');
  const input = form?.querySelector('input');
  const list = form?.parentElement?.querySelector<HTMLElement>('[data-search-results]');
  const status = form?.parentElement?.querySelector<HTMLElement>('[data-search-status]');
  if (!form || !input || !list || !status) return;
  let latest = 0;
  const run = async () => {
    const ticket = ++latest;
    const term = input.value.trim();
    try {
      const hits = await searchGuide(term);
      if (ticket === latest) render(list, status, hits, term);
    } catch {
      if (ticket === latest) status.textContent = 'Search is not available right now.';
    }
  };
  input.addEventListener('input', run);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
}
