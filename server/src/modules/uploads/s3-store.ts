import { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import { IMMUTABLE_CACHE_CONTROL, type S3Store } from './object-store.js';

export interface S3Settings {
  bucket: string;
  region: string;
  /** A non-AWS server (MinIO, s3rver): addressed path-style, since its buckets have no DNS names of their own. */
  endpoint: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
  publicUrl: string | undefined;
}

/** The HTTP status S3 answered with, from the SDK's error. */
const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;

/** A bucket on AWS S3 or any server speaking its protocol. */
export function createS3Store(settings: S3Settings): S3Store {
  // The SDK is loaded on first use: the default (disk) setup never pays its start-up time or hears its warnings.
  let connecting: Promise<{ sdk: typeof S3; client: S3.S3Client }> | undefined;
  const connect = () => (connecting ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: newClient(sdk, settings) })));

  return {
    kind: 's3',

    async put(key, body, contentType) {
      const { sdk, client } = await connect();
      await client.send(
        new sdk.PutObjectCommand({ Bucket: settings.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length, CacheControl: IMMUTABLE_CACHE_CONTROL }),
      );
    },

    async *list() {
      const { sdk, client } = await connect();
      let token: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: settings.bucket, Prefix: 'events/', ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified) yield { key: object.Key, lastModified: object.LastModified };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    async remove(entry) {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: settings.bucket, Key: entry.key }));
    },

    async get(key, options = {}) {
      const { sdk, client } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: key, IfNoneMatch: options.ifNoneMatch }));
        if (!(object.Body instanceof Readable)) throw new Error('S3 answered an object without a readable body');
        return {
          body: object.Body,
          contentType: object.ContentType,
          contentLength: object.ContentLength,
          cacheControl: object.CacheControl,
          etag: object.ETag,
          lastModified: object.LastModified,
        };
      } catch (error) {
        const status = statusOf(error);
        if (status === 304) return 'not-modified';
        if (status === 404) return undefined;
        throw error;
      }
    },

    publicUrl(key) {
      return settings.publicUrl ? `${settings.publicUrl}/${key}` : undefined;
    },
  };
}

function newClient(sdk: typeof S3, settings: S3Settings): S3.S3Client {
  return new sdk.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.endpoint !== undefined,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where S3 demands them: several S3-compatible servers reject or mishandle the
    // SDK's default CRC32 headers; bodies are small and sent whole, with their length.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An unreachable bucket fails an upload in seconds rather than holding the request open.
    requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
  });
}
