//! Classes (issue 26): the class, its teachers and its pupils (managed
//! accounts), and the flags of an account (teacher, managed).
//!
//! The class board, simuls, class tournaments and progress read and write
//! their own tables in their own files.

use super::{now_ms, Store, StoreError, UserRow};

/// A class as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassRow {
    /// Public id (in links).
    pub id: String,
    /// Name as the teacher wrote it.
    pub name: String,
    /// Description.
    pub description: String,
    /// The short code the pupils log in with (clear text).
    pub login_code: String,
    /// The account that created it.
    pub created_by: String,
    /// Creation time (wall, ms).
    pub created_ms: i64,
    /// Archived (kept, not shown among the active classes).
    pub archived: bool,
}

/// A pupil of a class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PupilRow {
    /// Account id (identity `u:ID`).
    pub user_id: String,
    /// The account name (generated, shown to everybody in the class).
    pub name: String,
    /// The real name (the class's teachers only).
    pub real_name: String,
    /// When added (wall, ms).
    pub added_ms: i64,
    /// Archived: kept with its games, cannot log in with the class code.
    pub archived: bool,
}

/// A teacher of a class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeacherRow {
    /// Account id.
    pub user_id: String,
    /// Account name.
    pub name: String,
}

const CLASS_COLUMNS: &str = "id, name, description, login_code, created_by, created_ms, archived";

type ClassTuple = (String, String, String, String, String, i64, i64);

fn class_from(t: ClassTuple) -> ClassRow {
    ClassRow {
        id: t.0,
        name: t.1,
        description: t.2,
        login_code: t.3,
        created_by: t.4,
        created_ms: t.5,
        archived: t.6 != 0,
    }
}

impl Store {
    /// Stores a new class with its creator as its teacher.
    pub async fn insert_class(&self, c: &ClassRow) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(&format!(
            "INSERT INTO classes ({CLASS_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7)"
        ))
        .bind(&c.id)
        .bind(&c.name)
        .bind(&c.description)
        .bind(&c.login_code)
        .bind(&c.created_by)
        .bind(c.created_ms)
        .bind(i64::from(c.archived))
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO class_teachers (class_id, user_id, added_ms) VALUES ($1,$2,$3)")
            .bind(&c.id)
            .bind(&c.created_by)
            .bind(c.created_ms)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A class by id.
    pub async fn class(&self, id: &str) -> Result<Option<ClassRow>, StoreError> {
        let row: Option<ClassTuple> = sqlx::query_as(&format!(
            "SELECT {CLASS_COLUMNS} FROM classes WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(class_from))
    }

    /// The classes account `user_id` teaches, newest first.
    pub async fn classes_taught(&self, user_id: &str) -> Result<Vec<ClassRow>, StoreError> {
        let rows: Vec<ClassTuple> = sqlx::query_as(&format!(
            "SELECT {} FROM classes c JOIN class_teachers t ON t.class_id = c.id \
             WHERE t.user_id = $1 ORDER BY c.created_ms DESC, c.id",
            CLASS_COLUMNS
                .split(", ")
                .map(|c| format!("c.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(class_from).collect())
    }

    /// The teachers of a class, in the order they were added.
    pub async fn class_teachers(&self, class_id: &str) -> Result<Vec<TeacherRow>, StoreError> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT u.id, u.name FROM class_teachers t JOIN users u ON u.id = t.user_id \
             WHERE t.class_id = $1 ORDER BY t.added_ms, u.name",
        )
        .bind(class_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(user_id, name)| TeacherRow { user_id, name })
            .collect())
    }

    /// Whether `user_id` teaches `class_id`.
    pub async fn is_class_teacher(
        &self,
        class_id: &str,
        user_id: &str,
    ) -> Result<bool, StoreError> {
        let row: Option<(i64,)> =
            sqlx::query_as("SELECT 1 FROM class_teachers WHERE class_id = $1 AND user_id = $2")
                .bind(class_id)
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.is_some())
    }

    /// Adds a co-teacher; false if they teach the class already.
    pub async fn add_class_teacher(
        &self,
        class_id: &str,
        user_id: &str,
    ) -> Result<bool, StoreError> {
        if self.is_class_teacher(class_id, user_id).await? {
            return Ok(false);
        }
        let r = sqlx::query(
            "INSERT INTO class_teachers (class_id, user_id, added_ms) VALUES ($1,$2,$3)",
        )
        .bind(class_id)
        .bind(user_id)
        .bind(now_ms())
        .execute(&self.pool)
        .await;
        match r {
            Ok(_) => Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Creates a pupil's managed account in `class_id` (one transaction);
    /// false if the name key is taken (nothing stored).
    pub async fn create_pupil(
        &self,
        class_id: &str,
        user: &UserRow,
        name_key: &str,
        real_name: &str,
    ) -> Result<bool, StoreError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let r = sqlx::query(
            "INSERT INTO users (id, name, name_key, pass_hash, created_ms, managed) \
             VALUES ($1,$2,$3,$4,$5,1)",
        )
        .bind(&user.id)
        .bind(&user.name)
        .bind(name_key)
        .bind(&user.pass_hash)
        .bind(now)
        .execute(&mut *tx)
        .await;
        match r {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        sqlx::query(
            "INSERT INTO class_pupils (class_id, user_id, real_name, added_ms, archived) \
             VALUES ($1,$2,$3,$4,0)",
        )
        .bind(class_id)
        .bind(&user.id)
        .bind(real_name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The pupils of a class by account name (archived ones too when
    /// `archived` is true).
    pub async fn class_pupils(
        &self,
        class_id: &str,
        archived: bool,
    ) -> Result<Vec<PupilRow>, StoreError> {
        let rows: Vec<(String, String, String, i64, i64)> = sqlx::query_as(
            "SELECT u.id, u.name, p.real_name, p.added_ms, p.archived FROM class_pupils p \
             JOIN users u ON u.id = p.user_id WHERE p.class_id = $1 AND (p.archived = 0 OR $2 = 1) \
             ORDER BY u.name",
        )
        .bind(class_id)
        .bind(i64::from(archived))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(user_id, name, real_name, added_ms, archived)| PupilRow {
                user_id,
                name,
                real_name,
                added_ms,
                archived: archived != 0,
            })
            .collect())
    }

    /// The class a pupil belongs to now (not archived there), if any.
    pub async fn pupil_class(&self, user_id: &str) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT class_id FROM class_pupils WHERE user_id = $1 AND archived = 0 \
             ORDER BY added_ms DESC LIMIT 1",
        )
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.0))
    }

    /// An account's flags: (teacher, managed); `None` if there is no such
    /// account.
    pub async fn user_flags(&self, user_id: &str) -> Result<Option<(bool, bool)>, StoreError> {
        let row: Option<(i64, i64)> =
            sqlx::query_as("SELECT teacher, managed FROM users WHERE id = $1")
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(t, m)| (t != 0, m != 0)))
    }

    /// Marks the account with name key `name_key` as a teacher; false if
    /// there is no such account (a managed account is never a teacher).
    pub async fn set_teacher(&self, name_key: &str) -> Result<bool, StoreError> {
        let r = sqlx::query("UPDATE users SET teacher = 1 WHERE name_key = $1 AND managed = 0")
            .bind(name_key)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() > 0)
    }

    /// Draws a new login code for a class.
    pub async fn set_class_login_code(&self, class_id: &str, code: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE classes SET login_code = $1 WHERE id = $2")
            .bind(code)
            .bind(class_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
