"""The terminal simulator: a whole table in a text terminal (``table``), its seat screens in
braille (``braille``) laid out in one frame (``compose``), and the keyboard as the seats'
buttons (``keys``, read raw by ``input``). The pygame window borrows its key bindings."""
