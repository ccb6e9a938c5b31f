"""`python -m cli` is `turnstile`."""

from cli import main

raise SystemExit(main())
