import type { ImgHTMLAttributes } from 'react';

/** Where the app's pictures are served from (client/public/assets/img). */
export const ASSET_IMAGE_BASE = '/assets/img/';

export interface AssetImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'alt'> {
  /** The picture's name without extension; a double-resolution copy sits beside it as name@2x. */
  name: string;
  ext?: 'png' | 'jpg' | 'jpeg' | 'webp' | 'avif' | 'svg';
  /** '' for a purely decorative picture. */
  alt: string;
}

/** The normal and double-resolution addresses of a named picture. */
export function assetImageSources(name: string, ext: string) {
  const src = `${ASSET_IMAGE_BASE}${name}.${ext}`;
  const src2x = `${ASSET_IMAGE_BASE}${name}@2x.${ext}`;
  return { src, srcSet: `${src} 1x, ${src2x} 2x` };
}

/** A picture referenced by name, with its @2x variant for high-density screens; lazy unless told. */
export function AssetImage({ name, ext = 'png', alt, loading = 'lazy', decoding = 'async', ...img }: AssetImageProps) {
  const { src, srcSet } = assetImageSources(name, ext);
  return <img src={src} srcSet={srcSet} alt={alt} loading={loading} decoding={decoding} {...img} />;
}
