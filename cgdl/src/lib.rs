pub use cgdl_runtime as runtime;
