/**
 * A picture's file name from the map's title and the floor's: "Riverside Mall" and "Ground
 * floor" make `riverside-mall-ground-floor`. Accents go (café → cafe); letters of other scripts
 * stay (東京 stays 東京); anything a file system could choke on becomes a dash.
 */
export function pictureFileName(title: string, floor: string): string {
  const slug = (text: string) =>
    text
      .normalize('NFD')
      .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '');
  const name = [slug(title), slug(floor)].filter(Boolean).join('-').slice(0, 100).replace(/-+$/, '');
  return name || 'map';
}
