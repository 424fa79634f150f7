import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';

/** Every entry of a zip held in memory, by name (test archives are a few kilobytes). */
export async function readZipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  const archive = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    archive.on('error', reject);
    archive.on('end', () => resolve());
    archive.on('entry', (entry: yauzl.Entry) => {
      archive.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        buffer(stream).then((content) => {
          entries.set(entry.fileName, content);
          archive.readEntry();
        }, reject);
      });
    });
    archive.readEntry();
  });
  return entries;
}
