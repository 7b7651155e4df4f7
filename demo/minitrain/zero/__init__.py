from .config import *  # noqa: F401,F403 (re-exported for minitrain.config)
