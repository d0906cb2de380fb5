//! Prints the built-in course (stages, exercises, the fewest moves and the
//! computed answers): `cargo run -p escaque-play --example curso`.

use escaque::{Lang, Localized};
use escaque_play::aprender::Course;

fn main() {
    let course = match Course::builtin() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{}", e.message(Lang::Es));
            std::process::exit(1);
        }
    };
    for s in &course.stages {
        println!(
            "{} — {} ({} ejercicios)",
            s.id,
            s.title.es,
            s.exercises.len()
        );
        for (i, e) in s.exercises.iter().enumerate() {
            let right: Vec<String> = e
                .right_options()
                .iter()
                .map(|&i| e.options()[i].es.clone())
                .collect();
            println!(
                "  {}. [{}] mín {} {}",
                i + 1,
                e.goal.kind(),
                e.min_moves,
                if right.is_empty() {
                    String::new()
                } else {
                    format!("→ {}", right.join(" / "))
                }
            );
        }
    }
    println!(
        "{} etapas, {} ejercicios",
        course.stages.len(),
        course.exercise_count()
    );
}
