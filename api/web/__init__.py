"""The web side for people: a match browser, match pages drawn as SVG, and statistics as pictures."""
