"""Browsers elsewhere: a Selenium Grid hub's WebDriver wire (:mod:`.webdriver`, sans-IO),
a browser from a grid session (:mod:`.grid`) and a pool of browsers (:mod:`.pool`).

Imports: :mod:`cdpagent.ops`, :mod:`cdpagent.browser` and below.
"""
