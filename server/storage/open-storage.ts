import path from 'node:path';
import type { Config } from '../config.ts';
import { createDiskStorage } from './disk-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/** The storage of the configuration: the S3 bucket of STORAGE_URL, else DATA_DIR/uploads. */
export function openStorage(config: Pick<Config, 'storageUrl' | 'dataDir'>): Storage {
  return config.storageUrl
    ? createS3Storage(config.storageUrl)
    : createDiskStorage(path.join(config.dataDir, 'uploads'));
}
