"""Repository root marker for pytest: puts the project root on sys.path (rootdir conftest)."""
