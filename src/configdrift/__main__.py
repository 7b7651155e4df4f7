from configdrift.cli import run

run()
