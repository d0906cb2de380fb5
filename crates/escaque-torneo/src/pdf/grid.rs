//! A class's homework grid (issue 57) on landscape A4 pages: a title and
//! lines under it, then a table of pupils × items (the first column the
//! pupil's name, a narrow centred column per item, the pupil's average
//! last), a closing row of averages, and a legend (the items' full names
//! and what the cell marks mean). Rows run onto further pages with the
//! header repeated.

use super::{Align, Column, Doc, LINE, MARGIN, SIZE};

/// What the sheet shows; every text as it is to be printed.
#[derive(Clone, Debug, Default)]
pub struct GridSheet {
    /// The homework's title.
    pub title: String,
    /// Lines under the title (class, due date).
    pub lines: Vec<String>,
    /// The header of the first column ("Alumno").
    pub name_header: String,
    /// One short header per item ("1", "2"…).
    pub columns: Vec<String>,
    /// The header of the last column ("Media").
    pub average_header: String,
    /// One row per pupil: name, one mark per item, average.
    pub rows: Vec<(String, Vec<String>, String)>,
    /// The closing row: label, one average per item, overall.
    pub footer: (String, Vec<String>, String),
    /// Lines after the table (items' names, what the marks mean).
    pub legend: Vec<String>,
}

/// The grid as PDF bytes.
pub fn grid_sheet(s: &GridSheet) -> Vec<u8> {
    let (w, h) = (842.0, 595.0);
    let mut doc = Doc {
        pages: vec![Vec::new()],
        y: h - MARGIN,
        w,
        h,
    };
    doc.line(&s.title, 15.0, true);
    for l in &s.lines {
        doc.line(l, 10.0, false);
    }
    doc.y -= 6.0;
    let usable = w - 2.0 * MARGIN;
    let n = s.columns.len().max(1) as f64;
    let name_w = (usable * 0.3).min(240.0);
    let avg_w = 44.0;
    let cell_w = ((usable - name_w - avg_w) / n).min(60.0);
    let mut cols = vec![Column {
        width: name_w,
        align: Align::Left,
    }];
    cols.extend(s.columns.iter().map(|_| Column {
        width: cell_w,
        align: Align::Centre,
    }));
    cols.push(Column {
        width: avg_w,
        align: Align::Right,
    });
    let header: Vec<String> = std::iter::once(s.name_header.clone())
        .chain(s.columns.iter().cloned())
        .chain(std::iter::once(s.average_header.clone()))
        .collect();
    doc.row(&cols, &header, true);
    let mut page = doc.pages.len();
    for (name, marks, avg) in &s.rows {
        doc.need(LINE + SIZE);
        if doc.pages.len() != page {
            page = doc.pages.len();
            doc.row(&cols, &header, true);
        }
        let cells: Vec<String> = std::iter::once(name.clone())
            .chain(marks.iter().cloned())
            .chain(std::iter::once(avg.clone()))
            .collect();
        doc.row(&cols, &cells, false);
    }
    doc.rule();
    doc.y -= 3.0;
    let (label, avgs, all) = &s.footer;
    let cells: Vec<String> = std::iter::once(label.clone())
        .chain(avgs.iter().cloned())
        .chain(std::iter::once(all.clone()))
        .collect();
    doc.row(&cols, &cells, true);
    doc.y -= 6.0;
    for l in &s.legend {
        doc.line(l, 8.5, false);
    }
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_grid_runs_onto_more_pages() {
        let row = |i: usize| {
            (
                format!("Alumno {i}"),
                vec!["P".to_string(); 20],
                "100".to_string(),
            )
        };
        let s = GridSheet {
            title: "Tarea".into(),
            columns: (1..=20).map(|i| i.to_string()).collect(),
            rows: (0..60).map(row).collect(),
            ..GridSheet::default()
        };
        let bytes = grid_sheet(&s);
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.starts_with("%PDF-1.4"));
        assert!(
            text.contains("/Count 2") || text.contains("/Count 3"),
            "pages"
        );
        assert!(text.contains("MediaBox [0 0 842 595]"));
    }
}
