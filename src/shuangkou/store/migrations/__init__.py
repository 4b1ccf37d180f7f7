"""Alembic migrations of the ``shuangkou`` database, run by :class:`shuangkou.store.Store`.

``Store(url)`` upgrades the database to the newest revision when it opens it; nothing here
needs to be run by hand. To write a new revision, add a module to ``versions/`` whose
``down_revision`` is the current head (``script.py.mako`` is the template).
"""
