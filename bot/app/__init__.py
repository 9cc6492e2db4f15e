"""The process: command line, settings, logging, start-up, embedded Redis."""
