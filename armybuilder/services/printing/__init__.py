"""Printing a list: the roster PDF (HTML from our template, PDF from WeasyPrint), its verification codes, the
text export, the composition chart and the player's print options. The data the pages need is read by
``selectors`` and ``services``; ``render`` and ``context`` only turn plain data into a document."""
