/**
 * The local test Stripe's API key and webhook signing secret: random per installation, made
 * on the first start in local mode and kept in `DATA_DIR/local-stripe-keys.json` (mode 0600),
 * never in the source, so nobody can sign a webhook or call its API without reading that file.
 *
 * Several processes may start on one DATA_DIR at once: each writes a complete candidate to a
 * file of its own, links it to the shared name (which fails if the name exists, so the first
 * one wins and no process can overwrite another's), and then every process reads the shared
 * file back, so they all use the same keys.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const LOCAL_STRIPE_KEYS_FILE = 'local-stripe-keys.json';

const LocalStripeKeys = z.object({
  /** The key the SDK sends to the local test Stripe's API (Bearer). */
  apiKey: z.string().regex(/^sk_test_[A-Za-z0-9_-]{32,}$/),
  /** Signs the webhook events its pages send to the product's webhook route. */
  webhookSecret: z.string().regex(/^whsec_[A-Za-z0-9_-]{32,}$/),
});
export type LocalStripeKeys = z.infer<typeof LocalStripeKeys>;

const random = () => randomBytes(32).toString('base64url');

export async function localStripeKeys(dataDir: string): Promise<LocalStripeKeys> {
  const file = path.join(dataDir, LOCAL_STRIPE_KEYS_FILE);
  await mkdir(dataDir, { recursive: true });
  let saved = await readIfExists(file);
  if (saved === null) {
    await createOnce(file);
    saved = await readFile(file, 'utf8');
  }
  let parsed;
  try {
    parsed = LocalStripeKeys.safeParse(JSON.parse(saved));
  } catch (error) {
    throw new Error(`The local test Stripe's keys in ${file} could not be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!parsed.success) throw new Error(`The local test Stripe's keys in ${file} are not valid; delete the file to make new ones.`);
  return parsed.data;
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function createOnce(file: string): Promise<void> {
  const keys: LocalStripeKeys = { apiKey: `sk_test_${random()}`, webhookSecret: `whsec_${random()}` };
  const candidate = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  // `wx`: a file of this process alone, readable by the server's user only.
  await writeFile(candidate, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx', flush: true });
  try {
    await link(candidate, file);
  } catch (error) {
    // Another process made the keys first: theirs are read back and used.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(candidate).catch(() => {});
  }
}
