//! A grid file as editable lines: how the corpus and the session generator
//! make a faulty file from a valid one. Which line holds what is the
//! reference's [`boxes_reference::layout`]; this module only edits bytes.

use boxes_reference::State;
use boxes_reference::gridfile;

/// A grid file's lines, without their `\n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines(pub Vec<Vec<u8>>);

impl Lines {
    /// The lines the reference's serializer writes for `state`.
    pub fn of(state: &State) -> Self {
        let bytes = gridfile::to_bytes(state);
        let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        // The serializer ends every line in `\n`, leaving one empty piece.
        lines.pop();
        Self(lines)
    }

    /// Every line followed by `\n`.
    pub fn bytes(&self) -> Vec<u8> {
        self.joined(b"\n")
    }

    /// Every line followed by `end`.
    pub fn joined(&self, end: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for line in &self.0 {
            out.extend_from_slice(line);
            out.extend_from_slice(end);
        }
        out
    }

    /// Line `index`, created empty (with any lines before it) if missing.
    pub fn line_mut(&mut self, index: usize) -> &mut Vec<u8> {
        if index >= self.0.len() {
            self.0.resize(index + 1, Vec::new());
        }
        &mut self.0[index]
    }

    /// The comma-separated fields of line `index`.
    pub fn fields(&self, index: usize) -> Vec<Vec<u8>> {
        self.0
            .get(index)
            .map(|line| line.split(|&b| b == b',').map(<[u8]>::to_vec).collect())
            .unwrap_or_default()
    }

    /// Replaces line `index` by `fields` joined with commas.
    pub fn set_fields(&mut self, index: usize, fields: &[Vec<u8>]) {
        *self.line_mut(index) = fields.join(&b',');
    }

    /// Replaces owner field `col` of the cell-row line `index`.
    pub fn set_field(&mut self, index: usize, col: usize, text: &[u8]) {
        let mut fields = self.fields(index);
        if let Some(field) = fields.get_mut(col) {
            *field = text.to_vec();
        }
        self.set_fields(index, &fields);
    }

    /// Owner field `col` of line `index`, empty when missing.
    pub fn field(&self, index: usize, col: usize) -> Vec<u8> {
        self.fields(index).into_iter().nth(col).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_round_trip_through_the_bytes() {
        let state = State::new(2, 2, 2);
        let mut lines = Lines::of(&state);
        assert_eq!(lines.bytes(), gridfile::to_bytes(&state));
        lines.set_field(6, 1, b"x");
        assert_eq!(lines.field(6, 1), b"x");
        assert_eq!(lines.field(6, 9), b"");
        assert_eq!(lines.0[6], b"0,x");
        lines.line_mut(9).push(b'1');
        assert_eq!(lines.0.len(), 10);
    }
}
