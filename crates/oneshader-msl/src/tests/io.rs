//! Vertex and fragment stage I/O, renaming, resources and errors.
