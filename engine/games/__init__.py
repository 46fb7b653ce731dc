"""Built-in games. Importing this package registers each of them."""
