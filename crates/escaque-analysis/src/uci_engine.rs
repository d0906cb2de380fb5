//! Any UCI engine as an [`crate::Evaluator`] (`--motor-analisis PATH`).
