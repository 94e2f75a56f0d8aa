"""Writes a copy of a PMTiles archive with some things changed, for tests of archives the fixture
is not: another schema or tile type, bounds in the header, uncompressed tiles, leaf directories.

Usage: rewrite_pmtiles.py INPUT OUTPUT CHANGES_JSON, with CHANGES_JSON an object of
  "metadata":  the new metadata object (whole)
  "header":    header fields to set (pmtiles.tile's names: tile_type, min_lon_e7 …)
  "tiles":     "none" to store the tiles inflated (tile_compression none)
  "leaf_size": tile entries per leaf directory (the writer puts them all in the root otherwise)
Run with PYTHONPATH naming the folder the PyPI package pmtiles is installed in.
"""
import gzip
import json
import sys

import pmtiles.writer as writer
from pmtiles.reader import MmapSource, Reader, all_tiles
from pmtiles.tile import Compression, TileType, zxy_to_tileid

ENUMS = {'tile_type': TileType, 'tile_compression': Compression, 'internal_compression': Compression}


def main(source, target, changes):
    with open(source, 'rb') as f:
        reader = Reader(MmapSource(f))
        header = reader.header()
        metadata = reader.metadata()
        tiles = sorted((zxy_to_tileid(*zxy), data) for zxy, data in all_tiles(reader.get_bytes))
    if changes.get('tiles') == 'none':
        tiles = [(tile_id, gzip.decompress(data)) for tile_id, data in tiles]
        header['tile_compression'] = Compression.NONE
    if 'leaf_size' in changes:
        writer.optimize_directories = lambda entries, _target: writer.build_roots_leaves(entries, changes['leaf_size'])
    header.update({name: ENUMS[name](value) if name in ENUMS else value for name, value in changes.get('header', {}).items()})
    metadata = changes.get('metadata', metadata)
    with writer.write(target) as w:
        for tile_id, data in tiles:
            w.write_tile(tile_id, data)
        w.finalize(header, metadata)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))
