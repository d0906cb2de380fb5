//! What the classes refuse (issue 53): one enum, its stable codes and its
//! Spanish and English text; `crate::http::error` gives each its HTTP
//! status, so nothing here knows one. [`ClassError`] is what a class's
//! domain function returns: a refusal, or storage that failed.

use crate::store::StoreError;

/// A refusal of the classes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `class_not_found`: no such class, or the asker is not in it (its
    /// existence is not told).
    ClassNotFound,
    /// `teachers_only`: a pupil asked for a teacher's action.
    TeachersOnly,
    /// `kid_mode`: a pupil tried to reach somebody outside its class.
    KidMode,
    /// `not_a_teacher`: only a teacher creates classes.
    NotATeacher,
    /// `pupil_not_found`: no pupil of that name in the class.
    PupilNotFound,
    /// `pupil_not_found`, naming who: a class event's list names somebody
    /// who is not a pupil of the class.
    PupilNotInClass(String),
    /// `class_full`: the class has its most active pupils, `max`.
    ClassFull {
        /// The most active pupils of a class.
        max: usize,
    },
    /// `bad_class_code`: wrong class name or code at a class login.
    BadClassCode,
    /// `class_only`: a class's tournament, and the asker is not of the class.
    ClassOnly,
    /// `not_enough_pupils`: a class's tournament needs two pupils.
    NotEnoughPupils,
    /// `no_such_account`: a co-teacher named who is no account (or a pupil's).
    NoSuchAccount,
    /// `already_teacher`: that account teaches the class already.
    TeacherAlready,
    /// `no_such_news`: no such notice in the class.
    NewsNotFound,
}

impl Refusal {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        use Refusal::*;
        match self {
            ClassNotFound => "class_not_found",
            TeachersOnly => "teachers_only",
            KidMode => "kid_mode",
            NotATeacher => "not_a_teacher",
            PupilNotFound | PupilNotInClass(_) => "pupil_not_found",
            ClassFull { .. } => "class_full",
            BadClassCode => "bad_class_code",
            ClassOnly => "class_only",
            NotEnoughPupils => "not_enough_pupils",
            NoSuchAccount => "no_such_account",
            TeacherAlready => "already_teacher",
            NewsNotFound => "no_such_news",
        }
    }

    /// The Spanish and English text.
    pub fn text(&self) -> (String, String) {
        use Refusal::*;
        let (es, en) = match self {
            ClassNotFound => (
                "no existe esa clase (o no eres de ella)",
                "no such class (or you are not in it)",
            ),
            TeachersOnly => (
                "solo los docentes de la clase pueden hacer esto",
                "only the class's teachers can do this",
            ),
            KidMode => (
                "en modo infantil solo se juega con la clase, el motor y los eventos de la clase",
                "in kid mode one plays only the class, the engine and the class's events",
            ),
            NotATeacher => (
                "solo un docente puede crear clases (lo marca el administrador del servidor)",
                "only a teacher can create classes (the server's administrator marks them)",
            ),
            PupilNotFound => (
                "no hay ningún alumno con ese nombre en esta clase",
                "there is no pupil of that name in this class",
            ),
            PupilNotInClass(name) => {
                return (
                    format!("«{name}» no es alumno de esta clase"),
                    format!("'{name}' is not a pupil of this class"),
                )
            }
            ClassFull { max } => {
                return (
                    format!("una clase tiene como mucho {max} alumnos activos"),
                    format!("a class has at most {max} active pupils"),
                )
            }
            BadClassCode => (
                "nombre o código de clase incorrectos",
                "wrong name or class code",
            ),
            ClassOnly => (
                "este torneo es de una clase: solo entran sus alumnos y sus docentes",
                "this tournament belongs to a class: only its pupils and teachers enter it",
            ),
            NotEnoughPupils => (
                "un torneo necesita al menos 2 alumnos (por omisión, los que están conectados)",
                "a tournament needs at least 2 pupils (by default, those online now)",
            ),
            NoSuchAccount => (
                "no hay ninguna cuenta (que no sea de alumno) con ese nombre",
                "there is no account (other than a pupil's) of that name",
            ),
            TeacherAlready => (
                "esa cuenta ya es docente de esta clase",
                "that account already teaches this class",
            ),
            NewsNotFound => (
                "no hay ningún aviso así en esta clase",
                "there is no such notice in this class",
            ),
        };
        (es.to_string(), en.to_string())
    }
}

/// What a class's domain function fails with: a refusal, or storage.
#[derive(Debug)]
pub enum ClassError {
    /// Refused (see [`Refusal`]).
    Refused(Refusal),
    /// Storage failed (logged once, where it becomes a refusal).
    Storage(StoreError),
}

impl From<Refusal> for ClassError {
    fn from(r: Refusal) -> ClassError {
        ClassError::Refused(r)
    }
}

impl From<StoreError> for ClassError {
    fn from(e: StoreError) -> ClassError {
        ClassError::Storage(e)
    }
}
