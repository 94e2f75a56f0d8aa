// The one place that imports sharp: every media module (and later the renderer) takes it from
// here, so the process-wide libvips settings below are applied before any image is decoded.
import sharp from 'sharp';

// Loaders for formats the service never reads. Uploads are checked by magic bytes first; this
// is the second wall, so a file that slips past the check cannot reach these decoders (several
// had CVEs). JPEG, PNG and GIF (KMZ icons), SVG (the renderer's overlay) and WebP (map tiles)
// stay available. Blocking a parent class blocks its file/buffer/source loaders.
const UNUSED_LOADERS = [
  'VipsForeignLoadTiff',
  'VipsForeignLoadVips',
  'VipsForeignLoadHeif',
  'VipsForeignLoadJp2k',
  'VipsForeignLoadJxl',
  'VipsForeignLoadPdf',
  'VipsForeignLoadOpenslide',
  'VipsForeignLoadMagick',
  'VipsForeignLoadFits',
  'VipsForeignLoadMatrix',
  'VipsForeignLoadCsv',
  'VipsForeignLoadRaw',
  'VipsForeignLoadRad',
  'VipsForeignLoadPpm',
  'VipsForeignLoadAnalyze',
  'VipsForeignLoadDcRaw',
];
sharp.block({ operation: UNUSED_LOADERS });

// Every image is decoded once and never again: libvips' operation cache would only hold memory.
sharp.cache(false);

export { sharp };
export type { Sharp, SharpOptions } from 'sharp';
