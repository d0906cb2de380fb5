//! `escaque torneo …`: the tournament manager on the command line.
//!
//! The tournament lives in one file (TRF with escaque's `XZ?` lines), saved
//! atomically after every change. `emparejar` on a TRF file from another
//! program (or with `--javafo`) prints the next round in the convention of
//! JaVaFo and bbpPairings and changes nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use escaque::Lang;
use escaque_torneo::dutch::{pair, pairing_players};
use escaque_torneo::model::{Outcome, Player, System, Tournament};
use escaque_torneo::standings::{compute, TieBreak};
use escaque_torneo::{format_points, html, store, trf};

use crate::error::CliError;

#[derive(Args)]
pub struct TorneoArgs {
    #[command(subcommand)]
    command: TorneoCommand,
}

#[derive(Copy, Clone, ValueEnum)]
enum Sistema {
    /// Suizo, sistema holandés FIDE.
    #[value(alias = "swiss")]
    Suizo,
    /// Round robin (Berger).
    Rr,
    /// Doble round robin.
    Drr,
}

#[derive(Subcommand)]
enum TorneoCommand {
    /// Crea un torneo nuevo en ARCHIVO.
    #[command(alias = "new")]
    Nuevo {
        /// Archivo del torneo (TRF con las líneas propias de escaque).
        archivo: PathBuf,
        /// Nombre del torneo.
        #[arg(long = "nombre", alias = "name")]
        nombre: String,
        /// Número de rondas (en round robin, se calcula si se omite).
        #[arg(long = "rondas", alias = "rounds")]
        rondas: Option<u32>,
        #[arg(
            long = "sistema",
            alias = "system",
            value_enum,
            default_value = "suizo"
        )]
        sistema: Sistema,
        /// Desempates en orden, p. ej. "BH-C1,BH,SB,DE,WIN" (BH, BH-C1, BH-M1, SB, DE, WIN, WON, BPG, ARO, PS, KS).
        #[arg(long = "desempates", alias = "tiebreaks")]
        desempates: Option<String>,
        /// Jugadores que puntúan por club o colegio en la clasificación por equipos.
        #[arg(long = "equipo", alias = "team-size", default_value_t = 4)]
        equipo: u32,
        /// Lugar.
        #[arg(long = "lugar", alias = "city", default_value = "")]
        lugar: String,
        /// Fecha de comienzo.
        #[arg(long = "fecha", alias = "date", default_value = "")]
        fecha: String,
        /// Color del número 1 en la primera ronda: blancas | negras.
        #[arg(long = "primero-negras", alias = "first-black")]
        primero_negras: bool,
    },
    /// Inscribe a un jugador (tras la primera ronda, inscripción tardía).
    #[command(alias = "enroll")]
    Inscribir {
        /// Archivo del torneo.
        archivo: PathBuf,
        /// Nombre del jugador («Apellido, Nombre»).
        nombre: String,
        /// Club o colegio.
        #[arg(long = "club", alias = "colegio")]
        club: Option<String>,
        /// Categoría (edad, sexo) para las clasificaciones por categoría.
        #[arg(long = "categoria", alias = "category")]
        categoria: Option<String>,
        /// Año de nacimiento.
        #[arg(long = "nacimiento", alias = "born")]
        nacimiento: Option<u16>,
        /// Elo (o rating nacional).
        #[arg(long = "elo", alias = "rating")]
        elo: Option<u16>,
        /// Identificador FIDE.
        #[arg(long = "fide")]
        fide: Option<u64>,
        /// m | f
        #[arg(long = "sexo", alias = "sex")]
        sexo: Option<String>,
    },
    /// Retira a un jugador desde la ronda dada (por defecto, la siguiente).
    #[command(alias = "withdraw")]
    Retirar {
        /// Archivo del torneo.
        archivo: PathBuf,
        /// Número inicial del jugador.
        jugador: u32,
        /// Primera ronda en la que ya no juega.
        #[arg(long = "desde", alias = "from")]
        desde: Option<u32>,
    },
    /// Anota un descanso de medio punto pedido para una ronda aún sin emparejar.
    #[command(alias = "bye")]
    Descanso {
        /// Archivo del torneo.
        archivo: PathBuf,
        /// Número inicial del jugador.
        jugador: u32,
        /// Ronda del descanso.
        ronda: u32,
    },
    /// Empareja la ronda siguiente (y la guarda), o imprime la de un TRF ajeno.
    #[command(alias = "pair")]
    Emparejar {
        /// Archivo del torneo, o un TRF de otro programa.
        archivo: PathBuf,
        /// Solo imprime en el formato de JaVaFo/bbpPairings, sin guardar.
        #[arg(long)]
        javafo: bool,
    },
    /// Anota o corrige un resultado: RONDA MESA RESULTADO (1-0, 0-1, ½-½, +/-, -/+, -/-).
    #[command(alias = "result")]
    Resultado {
        /// Archivo del torneo.
        archivo: PathBuf,
        /// Ronda.
        ronda: u32,
        /// Mesa.
        mesa: u32,
        /// Resultado: 1-0, 0-1, ½-½, +/-, -/+, -/-.
        resultado: String,
    },
    /// Muestra la clasificación con los desempates.
    #[command(alias = "standings")]
    Clasificacion {
        /// Archivo del torneo.
        archivo: PathBuf,
        /// Solo esta categoría.
        #[arg(long = "categoria", alias = "category")]
        categoria: Option<String>,
    },
    /// Exporta el torneo como TRF de la FIDE.
    #[command(alias = "export")]
    Exportar {
        /// Archivo del torneo.
        archivo: PathBuf,
        /// Archivo TRF de salida.
        #[arg(long)]
        trf: PathBuf,
    },
    /// Escribe las páginas HTML para imprimir en el directorio dado.
    #[command(alias = "print")]
    Imprimir {
        /// Archivo del torneo.
        archivo: PathBuf,
        /// Directorio donde escribir las páginas.
        #[arg(long = "salida", alias = "out", default_value = ".")]
        salida: PathBuf,
        /// Ronda de los emparejamientos (por defecto, la última).
        #[arg(long = "ronda", alias = "round")]
        ronda: Option<u32>,
    },
}

fn load(path: &Path, _lang: Lang) -> Result<Tournament, CliError> {
    store::load(path).map_err(CliError::Tournament)
}

fn save(path: &Path, t: &Tournament, _lang: Lang) -> Result<(), CliError> {
    store::save(path, t).map_err(CliError::Tournament)
}

fn io_err(e: std::io::Error) -> CliError {
    CliError::Write(e)
}

pub fn run(args: &TorneoArgs, lang: Lang) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match &args.command {
        TorneoCommand::Nuevo {
            archivo,
            nombre,
            rondas,
            sistema,
            desempates,
            equipo,
            lugar,
            fecha,
            primero_negras,
        } => {
            if archivo.exists() {
                return Err(CliError::Exists(archivo.display().to_string()));
            }
            let system = match sistema {
                Sistema::Suizo => System::Swiss,
                Sistema::Rr => System::RoundRobin { double: false },
                Sistema::Drr => System::RoundRobin { double: true },
            };
            if matches!(system, System::Swiss) && rondas.is_none() {
                return Err(CliError::SwissNeedsRounds);
            }
            let mut t = Tournament::new(nombre, system, rondas.unwrap_or(0));
            t.city = lugar.clone();
            t.start_date = fecha.clone();
            t.team_size = *equipo;
            t.first_white = !primero_negras;
            if let Some(d) = desempates {
                t.tiebreaks = TieBreak::parse_list(d).map_err(CliError::Tournament)?;
            }
            save(archivo, &t, lang)?;
            writeln!(
                out,
                "{}",
                lang.pick(
                    format!("Torneo «{nombre}» creado en {}", archivo.display()),
                    format!("Tournament '{nombre}' created in {}", archivo.display())
                )
            )
            .map_err(io_err)
        }
        TorneoCommand::Inscribir {
            archivo,
            nombre,
            club,
            categoria,
            nacimiento,
            elo,
            fide,
            sexo,
        } => {
            let mut t = load(archivo, lang)?;
            let mut p = Player::new(nombre);
            p.club = club.clone().unwrap_or_default();
            p.category = categoria.clone().unwrap_or_default();
            p.birth_year = *nacimiento;
            p.rating = *elo;
            p.fide_id = *fide;
            p.sex = sexo.clone().unwrap_or_default();
            let id = t.add_player(p).map_err(CliError::Tournament)?;
            if let System::RoundRobin { double } = t.system {
                let n = t.players.len() as u32;
                let per_cycle = n - 1 + n % 2;
                t.total_rounds = if double { 2 * per_cycle } else { per_cycle };
            }
            save(archivo, &t, lang)?;
            writeln!(
                out,
                "{}",
                lang.pick(
                    format!("Inscrito {nombre} con el número {id}"),
                    format!("Entered {nombre} as number {id}")
                )
            )
            .map_err(io_err)
        }
        TorneoCommand::Retirar {
            archivo,
            jugador,
            desde,
        } => {
            let mut t = load(archivo, lang)?;
            let from = desde.unwrap_or(t.rounds.len() as u32 + 1);
            t.withdraw(*jugador, from).map_err(CliError::Tournament)?;
            save(archivo, &t, lang)
        }
        TorneoCommand::Descanso {
            archivo,
            jugador,
            ronda,
        } => {
            let mut t = load(archivo, lang)?;
            t.request_half_bye(*jugador, *ronda)
                .map_err(CliError::Tournament)?;
            save(archivo, &t, lang)
        }
        TorneoCommand::Emparejar { archivo, javafo } => {
            let text = std::fs::read_to_string(archivo).map_err(|error| CliError::Open {
                path: archivo.display().to_string(),
                error,
            })?;
            let t = trf::parse(&text).map_err(CliError::Trf)?;
            let own = text.lines().any(|l| l.starts_with("XZS"));
            if *javafo || !own {
                let round = t.rounds.len() as u32 + 1;
                if round > 1 && !t.pending(round - 1).is_empty() {
                    return Err(CliError::Tournament(
                        escaque_torneo::TorneoError::RoundNotComplete {
                            round: round - 1,
                            pending: t.pending(round - 1),
                        },
                    ));
                }
                let players = pairing_players(&t, round);
                let total = t.total_rounds.max(round);
                let pairs = pair(&players, round == total, total, t.first_white).ok_or(
                    CliError::Tournament(escaque_torneo::TorneoError::NoPairing { round }),
                )?;
                writeln!(out, "{}", pairs.len()).map_err(io_err)?;
                for (w, b) in pairs {
                    writeln!(out, "{w} {}", b.unwrap_or(0)).map_err(io_err)?;
                }
                return Ok(());
            }
            let mut t = t;
            let round = t.pair_next_round().map_err(CliError::Tournament)?;
            save(archivo, &t, lang)?;
            print_round(&mut out, &t, round, lang)
        }
        TorneoCommand::Resultado {
            archivo,
            ronda,
            mesa,
            resultado,
        } => {
            let mut t = load(archivo, lang)?;
            let outcome = Outcome::parse(resultado).map_err(CliError::Tournament)?;
            let c = t
                .set_result_board(*ronda, *mesa, outcome)
                .map_err(CliError::Tournament)?;
            save(archivo, &t, lang)?;
            if c.previous != Outcome::Pending && c.previous != outcome {
                writeln!(
                    out,
                    "{}",
                    lang.pick(
                        format!("Corregido: antes {}", c.previous.text()),
                        format!("Corrected: was {}", c.previous.text())
                    )
                )
                .map_err(io_err)?;
                if !c.later_rounds_paired.is_empty() {
                    let list: Vec<String> = c
                        .later_rounds_paired
                        .iter()
                        .map(|r| r.to_string())
                        .collect();
                    writeln!(
                        out,
                        "{}",
                        lang.pick(
                            format!("Aviso: las rondas {} se emparejaron con el resultado anterior; la clasificación ya está recalculada", list.join(", ")),
                            format!("Note: rounds {} were paired with the old result; the standings are recomputed", list.join(", "))
                        )
                    )
                    .map_err(io_err)?;
                }
            }
            Ok(())
        }
        TorneoCommand::Clasificacion { archivo, categoria } => {
            let t = load(archivo, lang)?;
            let codes: Vec<&str> = t.tiebreaks.iter().map(|tb| tb.code()).collect();
            writeln!(
                out,
                "{:>4} {:>4}  {:<30} {:>6}  {}",
                lang.pick("Pto", "Pl"),
                "Nº",
                lang.pick("Nombre", "Name"),
                lang.pick("Puntos", "Points"),
                codes.join("  ")
            )
            .map_err(io_err)?;
            let mut place = 0;
            for s in compute(&t) {
                let p = &t.players[s.player as usize - 1];
                if categoria.as_ref().is_some_and(|c| &p.category != c) {
                    continue;
                }
                place += 1;
                let shown = if categoria.is_some() { place } else { s.rank };
                let tbs: Vec<String> = s.tiebreaks.iter().map(|v| format!("{v}")).collect();
                writeln!(
                    out,
                    "{:>4} {:>4}  {:<30} {:>6}  {}",
                    shown,
                    s.player,
                    p.name,
                    format_points(s.points),
                    tbs.join("  ")
                )
                .map_err(io_err)?;
            }
            Ok(())
        }
        TorneoCommand::Exportar { archivo, trf: dest } => {
            let t = load(archivo, lang)?;
            let text: String = trf::write(&t)
                .lines()
                .filter(|l| !l.starts_with("XZ"))
                .map(|l| format!("{l}\n"))
                .collect();
            store::write_atomic(dest, &text).map_err(CliError::Tournament)
        }
        TorneoCommand::Imprimir {
            archivo,
            salida,
            ronda,
        } => {
            let t = load(archivo, lang)?;
            std::fs::create_dir_all(salida).map_err(io_err)?;
            let mut pages = vec![
                ("clasificacion.html".to_string(), html::standings_page(&t)),
                ("cruzada.html".to_string(), html::crosstable_page(&t)),
                ("categorias.html".to_string(), html::categories_page(&t)),
                ("equipos.html".to_string(), html::teams_page(&t)),
            ];
            let r = ronda.unwrap_or(t.rounds.len() as u32);
            if r >= 1 {
                pages.push((format!("ronda-{r}.html"), html::pairings(&t, r)));
            }
            for (name, text) in pages {
                let path = salida.join(&name);
                store::write_atomic(&path, &text).map_err(CliError::Tournament)?;
                writeln!(out, "{}", path.display()).map_err(io_err)?;
            }
            Ok(())
        }
    }
}

fn print_round(
    out: &mut impl Write,
    t: &Tournament,
    round: u32,
    lang: Lang,
) -> Result<(), CliError> {
    let r = &t.rounds[round as usize - 1];
    writeln!(out, "{} {round}", lang.pick("Ronda", "Round")).map_err(io_err)?;
    for (i, g) in r.games.iter().enumerate() {
        writeln!(
            out,
            "{:>3}. {:>4} {:<28} – {:>4} {}",
            i + 1,
            g.white,
            t.players[g.white as usize - 1].name,
            g.black,
            t.players[g.black as usize - 1].name
        )
        .map_err(io_err)?;
    }
    for (p, k) in &r.byes {
        writeln!(
            out,
            "     {:>4} {:<28} {}",
            p,
            t.players[*p as usize - 1].name,
            match k {
                escaque_torneo::ByeKind::PairingAllocated =>
                    lang.pick("exento (1 punto)", "bye (1 point)"),
                escaque_torneo::ByeKind::Half => lang.pick("descanso (½)", "half-point bye"),
                escaque_torneo::ByeKind::Full => lang.pick("exento (1 punto)", "full-point bye"),
                escaque_torneo::ByeKind::Zero => lang.pick("no juega", "not playing"),
            }
        )
        .map_err(io_err)?;
    }
    Ok(())
}
