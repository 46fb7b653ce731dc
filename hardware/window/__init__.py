"""Everything drawn with pygame: the public screen (``public``, with the hourglass ``glass``),
on a real table's TV as in the simulator, and the simulator window of up to eight seats
(``table``, ``seats``, ``input``), all drawn on one pygame thread (``loop``). Not ``pygame``:
a package of that name would shadow the library."""
