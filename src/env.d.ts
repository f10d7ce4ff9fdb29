interface ImportMetaEnv {
  readonly PUBLIC_API_BASE?: string;
  readonly PUBLIC_ANALYTICS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
