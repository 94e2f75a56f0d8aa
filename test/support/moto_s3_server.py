# moto's S3 server (PyPI `moto`) for the blob store tests, on the host and port given, with a
# clock the tests can set back: objects written while MOTO_CLOCK_FILE holds -90000 get a
# LastModified 25 hours ago, as `fs.utimesSync` ages a local file. The file holds seconds to add
# to the real time (missing or empty: 0). Started by test/support/s3Server.ts.
import datetime
import os
import sys

import moto.s3.models as s3_models
from moto.core.utils import utcnow
from moto.server import main

CLOCK_FILE = os.environ["MOTO_CLOCK_FILE"]


def shifted_utcnow() -> datetime.datetime:
    try:
        with open(CLOCK_FILE) as clock:
            offset = float(clock.read().strip() or 0)
    except FileNotFoundError:
        offset = 0
    return utcnow() + datetime.timedelta(seconds=offset)


# FakeKey and friends read the time through this module-level name.
if not hasattr(s3_models, "utcnow"):
    sys.exit("moto.s3.models has no utcnow: the pinned moto version changed; update this launcher")
s3_models.utcnow = shifted_utcnow

if __name__ == "__main__":
    main(sys.argv[1:])
