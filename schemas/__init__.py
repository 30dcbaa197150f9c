"""Shapes and codes shared by the gateway (`service`) and the workers (`actors`)."""
