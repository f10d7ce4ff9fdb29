/** Where the browser sends API calls; same origin by default. */
export const apiBase: string = import.meta.env.PUBLIC_API_BASE ?? '/api/v1';
