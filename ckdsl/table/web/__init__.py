"""The local web table (``ckdsl serve``): the game in a browser, one link per human seat."""
