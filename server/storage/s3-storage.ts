import { PassThrough, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { meteredBody } from './metered-body.ts';
import { assertSafeKey, type Storage } from './storage.ts';

/**
 * S3-compatible storage for `s3://bucket/prefix`. Credentials and region come from the usual `AWS_*`
 * variables; `S3_ENDPOINT` points at MinIO, Ceph or another compatible service (path-style addressing).
 * A multipart upload only becomes visible when complete, which gives the same atomicity as the disk store.
 */
export function createS3Storage(storageUrl: string, env: Record<string, string | undefined> = process.env): Storage {
  const url = new URL(storageUrl);
  const bucket = url.hostname;
  const prefix = url.pathname.replace(/^\/+|\/+$/g, '');
  const client = new S3Client({
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT, forcePathStyle: true } : {}),
    // Keys given in the environment win; otherwise the SDK's own chain (instance roles, profiles) applies.
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {}),
  });
  const objectKey = (key: string) => {
    assertSafeKey(key);
    return prefix ? `${prefix}/${key}` : key;
  };

  return {
    async put(key, held, options = {}) {
      const body = held instanceof Uint8Array ? Readable.from([held]) : held;
      const meter = meteredBody(options.limit);
      const passthrough = new PassThrough();
      body.pipe(meter.stream).pipe(passthrough);
      const failed = new Promise<never>((_, reject) => {
        body.once('error', reject);
        meter.stream.once('error', reject);
      });
      const upload = new Upload({ client, params: { Bucket: bucket, Key: objectKey(key), Body: passthrough } });
      try {
        await Promise.race([upload.done(), failed]);
      } catch (error) {
        await upload.abort().catch(() => undefined);
        throw error;
      }
      return { size: meter.size(), sha256: await meter.digest() };
    },

    async get(key, range) {
      const answer = await client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return answer.Body as Readable;
    },

    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
      } catch (error) {
        if ((error as { name?: string }).name === 'NotFound') return undefined;
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async *list(listPrefix) {
      const from = objectKey(listPrefix.replace(/\/$/, '')) + '/';
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: from, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          yield {
            key: prefix ? object.Key.slice(prefix.length + 1) : object.Key,
            modified: object.LastModified ?? new Date(0),
          };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    // A multipart upload is invisible until complete; parts of abandoned ones are for the bucket's
    // AbortIncompleteMultipartUpload lifecycle rule (see README).
    sweepUnfinished: async () => 0,

    async check() {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },
  };
}
