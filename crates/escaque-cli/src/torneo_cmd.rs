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
use escaque_torneo::model::{ByeKind, Outcome, Player, System, Tournament, Unusual};
use escaque_torneo::pairing::pair_next_round;
use escaque_torneo::standings::{self, compute_after, Counted, Rules, TieBreak};
use escaque_torneo::{html, trf};

use crate::error::CliError;
use crate::torneo_file;

#[derive(Args)]
pub struct TorneoArgs {
    #[command(subcommand)]
    command: TorneoCommand,
}

#[derive(Copy, Clone, ValueEnum)]
enum SystemArg {
    /// Suizo, sistema holandés FIDE.
    #[value(name = "suizo", alias = "swiss")]
    Swiss,
    /// Round robin (Berger).
    #[value(name = "rr")]
    RoundRobin,
    /// Doble round robin.
    #[value(name = "drr")]
    DoubleRoundRobin,
}

/// The version of FIDE C.07, the tie-break regulations.
#[derive(Copy, Clone, ValueEnum)]
enum RulesArg {
    /// El texto de 2023/2024.
    #[value(name = "2024", alias = "2023")]
    V2024,
    /// La enmienda de marzo de 2026 (torneos que empiezan desde el 1-3-2026).
    #[value(name = "2026")]
    V2026,
}

impl RulesArg {
    fn rules(self) -> Rules {
        match self {
            RulesArg::V2024 => Rules::V2024,
            RulesArg::V2026 => Rules::V2026,
        }
    }
}

#[derive(Copy, Clone, ValueEnum)]
enum PaperArg {
    /// A4 (210 × 297 mm), el papel de España y de casi toda América Latina.
    #[value(name = "a4")]
    A4,
    /// Carta (US Letter, 8,5 × 11 pulgadas).
    #[value(name = "carta", alias = "letter")]
    Letter,
}

#[derive(Copy, Clone, ValueEnum)]
enum ByeArg {
    /// Medio punto, pedido por el jugador.
    #[value(name = "medio", alias = "half")]
    Half,
    /// Un punto, concedido por la organización.
    #[value(name = "completo", alias = "full")]
    Full,
    /// Cero puntos: ausencia anunciada.
    #[value(name = "cero", alias = "zero")]
    Zero,
}

// Argument ids are English (the code's language); what a person reads, the
// option names and value names, is Spanish with English aliases, and the
// English help comes from `help::ENGLISH`.
#[derive(Subcommand)]
enum TorneoCommand {
    /// Torneos por equipos: suizo FIDE C.04.6, round robin, Scheveningen.
    #[command(name = "equipos", long_flag = "equipos", alias = "teams")]
    Equipos(crate::torneo_equipos_cmd::EquiposArgs),
    /// Crea un torneo nuevo en ARCHIVO.
    #[command(alias = "new")]
    Nuevo(NuevoArgs),
    /// Inscribe a un jugador (tras la primera ronda, inscripción tardía).
    #[command(alias = "enroll")]
    Inscribir(InscribirArgs),
    /// Retira a un jugador desde la ronda dada (por defecto, la siguiente).
    #[command(alias = "withdraw")]
    Retirar {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Número inicial del jugador.
        #[arg(value_name = "JUGADOR")]
        player: u32,
        /// Primera ronda en la que ya no juega.
        #[arg(long = "desde", alias = "from", value_name = "RONDA")]
        from: Option<u32>,
    },
    /// Anota un descanso para una ronda aún sin emparejar: medio punto pedido (por defecto), un punto concedido o una ausencia.
    #[command(alias = "bye")]
    Descanso {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Número inicial del jugador.
        #[arg(value_name = "JUGADOR")]
        player: u32,
        /// Ronda del descanso.
        #[arg(value_name = "RONDA")]
        round: u32,
        /// Tipo: medio (½ punto), completo (1 punto), cero (ausencia).
        #[arg(
            long = "tipo",
            alias = "kind",
            value_enum,
            default_value = "medio",
            value_name = "TIPO"
        )]
        kind: ByeArg,
    },
    /// Prohíbe que se enfrenten entre sí los jugadores dados (hermanos, compañeros de colegio) en las rondas dadas.
    #[command(alias = "forbid")]
    Prohibir {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Números iniciales de los jugadores (dos o más).
        #[arg(value_name = "JUGADORES", num_args = 2.., required = true)]
        players: Vec<u32>,
        /// Primera ronda de la prohibición (por defecto, la siguiente).
        #[arg(long = "desde", alias = "from", value_name = "RONDA")]
        from: Option<u32>,
        /// Última ronda de la prohibición (por defecto, la última del torneo).
        #[arg(long = "hasta", alias = "to", value_name = "RONDA")]
        to: Option<u32>,
    },
    /// Empareja la ronda siguiente (y la guarda), o imprime la de un TRF ajeno.
    #[command(alias = "pair")]
    Emparejar {
        /// Archivo del torneo, o un TRF de otro programa.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Solo imprime en el formato de JaVaFo/bbpPairings, sin guardar.
        #[arg(long)]
        javafo: bool,
    },
    /// Anota o corrige un resultado: RONDA MESA RESULTADO (1-0, 0-1, ½-½, +/-, -/+, -/-, ½-0, 0-½, 0-0).
    #[command(alias = "result")]
    Resultado {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Ronda.
        #[arg(value_name = "RONDA")]
        round: u32,
        /// Mesa.
        #[arg(value_name = "MESA")]
        board: u32,
        /// Resultado: 1-0, 0-1, ½-½, +/-, -/+, -/-, o uno inusual: ½-0, 0-½, 0-0.
        // `-/+` and `-/-` start with a hyphen: taken as the value, never as
        // an option, so that they are typed as the help writes them.
        #[arg(value_name = "RESULTADO", allow_hyphen_values = true)]
        result: String,
    },
    /// Muestra la clasificación con los desempates.
    #[command(alias = "standings")]
    Clasificacion {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Solo esta categoría.
        #[arg(long = "categoria", alias = "category", value_name = "CATEGORIA")]
        category: Option<String>,
        /// Explica cómo se calcularon los desempates del jugador N: cada
        /// rival y su puntuación ajustada, el rival ficticio, los cortes.
        #[arg(long = "detalle", alias = "detail", value_name = "N")]
        detail: Option<u32>,
        /// Calcula con esta versión del reglamento (2024 | 2026) en lugar de
        /// la del torneo (no se guarda).
        #[arg(
            long = "reglamento",
            alias = "tiebreak-rules",
            value_enum,
            value_name = "VERSION"
        )]
        rules: Option<RulesArg>,
    },
    /// Dice si el torneo está en modo FIDE (lo está salvo que se saliera) y lo que consta de él.
    #[command(name = "modo-fide", alias = "fide-mode")]
    ModoFide(crate::torneo_fide_cmd::ModoFideArgs),
    /// Sale del modo FIDE: pide --confirmo y el nombre del torneo otra vez; no se puede deshacer.
    #[command(name = "salir-modo-fide", alias = "leave-fide-mode")]
    SalirModoFide(crate::torneo_fide_cmd::SalirArgs),
    /// Emparejamiento manual de la ronda siguiente: muestra el del programa y los avisos; --guardar lo termina.
    #[command(name = "emparejar-manual", alias = "pair-manually")]
    EmparejarManual(crate::torneo_fide_cmd::ManualArgs),
    /// Genera torneos suizos al azar (TRF-2026) para probar programas de emparejamiento y desempates.
    #[command(alias = "generate")]
    Generar(crate::torneo_check_cmd::GenerarArgs),
    /// Comprueba los emparejamientos y la clasificación de un torneo (TRF):
    /// sale con 0 si todo está bien, 1 si algo está mal, 2 si no se puede leer.
    #[command(alias = "check")]
    Comprobar(crate::torneo_check_cmd::ComprobarArgs),
    /// Exporta el torneo como TRF de la FIDE.
    #[command(alias = "export")]
    Exportar {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Archivo TRF de salida.
        #[arg(long, value_name = "TRF")]
        trf: PathBuf,
    },
    /// Escribe las páginas HTML para imprimir (y en PDF con --pdf) en el directorio dado.
    #[command(alias = "print")]
    Imprimir {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Directorio donde escribir las páginas.
        #[arg(
            long = "salida",
            alias = "out",
            default_value = ".",
            value_name = "DIRECTORIO"
        )]
        out: PathBuf,
        /// Ronda de los emparejamientos (por defecto, la última).
        #[arg(long = "ronda", alias = "round", value_name = "RONDA")]
        round: Option<u32>,
        /// Además de cada página HTML, su PDF (imprime con Chromium sin ventana).
        #[arg(long)]
        pdf: bool,
        /// Papel: a4 (por defecto) | carta.
        #[arg(
            long = "papel",
            alias = "paper",
            value_enum,
            default_value = "a4",
            value_name = "PAPEL"
        )]
        paper: PaperArg,
    },
}

// The options of `nuevo` and `inscribir` (their help: the fields' comments;
// the subcommand's: its variant's).
#[derive(Args)]
struct NuevoArgs {
    /// Archivo del torneo (TRF con las líneas propias de escaque).
    #[arg(value_name = "ARCHIVO")]
    file: PathBuf,
    /// Nombre del torneo.
    #[arg(long = "nombre", alias = "name", value_name = "NOMBRE")]
    name: String,
    /// Número de rondas (en round robin, se calcula si se omite).
    #[arg(long = "rondas", alias = "rounds", value_name = "RONDAS")]
    rounds: Option<u32>,
    #[arg(
        long = "sistema",
        alias = "system",
        value_enum,
        default_value = "suizo",
        value_name = "SISTEMA"
    )]
    system: SystemArg,
    /// Desempates en orden, p. ej. "BH-C1,BH,SB,DE,WIN" (BH, BH-C1, BH-M1, SB, DE, WIN, WON, BPG, ARO, PS, KS).
    #[arg(long = "desempates", alias = "tiebreaks", value_name = "DESEMPATES")]
    tiebreaks: Option<String>,
    /// Jugadores que puntúan por club o colegio en la clasificación por equipos.
    #[arg(
        long = "equipo",
        alias = "team-size",
        default_value_t = 4,
        value_name = "EQUIPO"
    )]
    team_size: u32,
    /// Lugar.
    #[arg(
        long = "lugar",
        alias = "city",
        default_value = "",
        value_name = "LUGAR"
    )]
    city: String,
    /// Fecha de comienzo.
    #[arg(
        long = "fecha",
        alias = "date",
        default_value = "",
        value_name = "FECHA"
    )]
    date: String,
    /// Color del número 1 en la primera ronda: blancas | negras.
    #[arg(long = "primero-negras", alias = "first-black")]
    first_black: bool,
    /// Versión del reglamento de desempates (FIDE C.07): 2024 | 2026;
    /// sin ella, la que corresponde a la fecha de comienzo.
    #[arg(
        long = "reglamento",
        alias = "tiebreak-rules",
        value_enum,
        value_name = "VERSION"
    )]
    rules: Option<RulesArg>,
    /// Elo con el que cuentan los jugadores sin Elo en el ARO (si las bases
    /// del torneo lo fijan; sin él, el ARO no se usa cuando hay jugadores sin Elo).
    #[arg(long = "elo-sin-elo", alias = "unrated-rating", value_name = "ELO")]
    unrated_rating: Option<u16>,
}

#[derive(Args)]
struct InscribirArgs {
    /// Archivo del torneo.
    #[arg(value_name = "ARCHIVO")]
    file: PathBuf,
    /// Nombre del jugador («Apellido, Nombre»).
    #[arg(value_name = "NOMBRE")]
    name: String,
    /// Club o colegio.
    #[arg(long = "club", alias = "colegio", value_name = "CLUB")]
    club: Option<String>,
    /// Categoría (edad, sexo) para las clasificaciones por categoría.
    #[arg(long = "categoria", alias = "category", value_name = "CATEGORIA")]
    category: Option<String>,
    /// Año de nacimiento.
    #[arg(long = "nacimiento", alias = "born", value_name = "AÑO")]
    born: Option<u16>,
    /// Elo (o rating nacional).
    #[arg(long = "elo", alias = "rating", value_name = "ELO")]
    rating: Option<u16>,
    /// Identificador FIDE.
    #[arg(long = "fide", value_name = "FIDE")]
    fide: Option<u64>,
    /// m | f
    #[arg(long = "sexo", alias = "sex", value_name = "SEXO")]
    sex: Option<String>,
}

fn load(path: &Path, lang: Lang) -> Result<Tournament, CliError> {
    let (t, cp1252) = torneo_file::load(path)?;
    warn_encoding(path, cp1252, lang);
    Ok(t)
}

/// Says on standard error that a file was not UTF-8 and was read as
/// Windows-1252 (it is saved back as UTF-8).
fn warn_encoding(path: &Path, cp1252: bool, lang: Lang) {
    if cp1252 {
        eprintln!(
            "{}",
            lang.pick(
                format!(
                    "Aviso: {} no está en UTF-8; se lee como Windows-1252 (si se guarda, se guarda en UTF-8)",
                    path.display()
                ),
                format!(
                    "Warning: {} is not UTF-8; read as Windows-1252 (saved as UTF-8 if saved)",
                    path.display()
                )
            )
        );
    }
}

fn save(path: &Path, t: &Tournament, _lang: Lang) -> Result<(), CliError> {
    torneo_file::save(path, t)
}

fn io_err(e: std::io::Error) -> CliError {
    CliError::Write(e)
}

/// `escaque torneo …`: one function a subcommand (the tournament file's
/// own commands here; teams, FIDE mode, generating and checking in their
/// modules).
pub fn run(args: &TorneoArgs, lang: Lang) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match &args.command {
        TorneoCommand::Nuevo(a) => nuevo(&mut out, a, lang),
        TorneoCommand::Inscribir(a) => inscribir(&mut out, a, lang),
        TorneoCommand::Retirar { file, player, from } => retirar(file, *player, *from, lang),
        TorneoCommand::Descanso {
            file,
            player,
            round,
            kind,
        } => descanso(file, *player, *round, *kind, lang),
        TorneoCommand::Prohibir {
            file,
            players,
            from,
            to,
        } => prohibir(file, players, *from, *to, lang),
        TorneoCommand::Emparejar { file, javafo } => emparejar(&mut out, file, *javafo, lang),
        TorneoCommand::Resultado {
            file,
            round,
            board,
            result,
        } => resultado(&mut out, file, *round, *board, result, lang),
        TorneoCommand::Clasificacion {
            file,
            category,
            detail,
            rules,
        } => clasificacion(&mut out, file, category.as_deref(), *detail, *rules, lang),
        TorneoCommand::Equipos(a) => crate::torneo_equipos_cmd::run(a, lang),
        TorneoCommand::ModoFide(a) => crate::torneo_fide_cmd::status(a, lang),
        TorneoCommand::SalirModoFide(a) => crate::torneo_fide_cmd::leave(a, lang),
        TorneoCommand::EmparejarManual(a) => crate::torneo_fide_cmd::manual(a, lang),
        TorneoCommand::Generar(a) => crate::torneo_check_cmd::generar(a, lang),
        TorneoCommand::Comprobar(a) => crate::torneo_check_cmd::comprobar(a, lang),
        TorneoCommand::Exportar { file, trf: dest } => exportar(file, dest, lang),
        TorneoCommand::Imprimir {
            file,
            out: dir,
            round,
            pdf,
            paper,
        } => imprimir(&mut out, file, dir, *round, *pdf, *paper, lang),
    }
}

/// `nuevo`: a new tournament file (refused if the file exists).
fn nuevo(out: &mut impl Write, a: &NuevoArgs, lang: Lang) -> Result<(), CliError> {
    let file = &a.file;
    if file.exists() {
        return Err(CliError::Exists(file.display().to_string()));
    }
    let system = match a.system {
        SystemArg::Swiss => System::Swiss,
        SystemArg::RoundRobin => System::RoundRobin { double: false },
        SystemArg::DoubleRoundRobin => System::RoundRobin { double: true },
    };
    if matches!(system, System::Swiss) && a.rounds.is_none() {
        return Err(CliError::SwissNeedsRounds);
    }
    let name = &a.name;
    let mut t = Tournament::new(name, system, a.rounds.unwrap_or(0));
    t.city = a.city.clone();
    t.start_date = a.date.clone();
    t.team_size = a.team_size;
    t.first_white = !a.first_black;
    if let Some(d) = &a.tiebreaks {
        t.tiebreaks = TieBreak::parse_list(d).map_err(CliError::Tournament)?;
        // C.07: no Buchholz for a round robin.
        TieBreak::check_for(system, &t.tiebreaks).map_err(CliError::Tournament)?;
    }
    t.tiebreak_rules = a.rules.map(RulesArg::rules);
    t.unrated_rating = a.unrated_rating;
    save(file, &t, lang)?;
    writeln!(
        out,
        "{}",
        lang.pick(
            format!("Torneo «{name}» creado en {}", file.display()),
            format!("Tournament '{name}' created in {}", file.display())
        )
    )
    .map_err(io_err)
}

/// `inscribir`: enters a player (a round robin's rounds follow the field).
fn inscribir(out: &mut impl Write, a: &InscribirArgs, lang: Lang) -> Result<(), CliError> {
    let mut t = load(&a.file, lang)?;
    let name = &a.name;
    let mut p = Player::new(name);
    p.club = a.club.clone().unwrap_or_default();
    p.category = a.category.clone().unwrap_or_default();
    p.birth_year = a.born;
    p.rating = a.rating;
    p.fide_id = a.fide;
    p.sex = a.sex.clone().unwrap_or_default();
    let id = t.add_player(p).map_err(CliError::Tournament)?;
    if let System::RoundRobin { double } = t.system {
        let n = t.players.len() as u32;
        let per_cycle = n - 1 + n % 2;
        t.total_rounds = if double { 2 * per_cycle } else { per_cycle };
    }
    save(&a.file, &t, lang)?;
    writeln!(
        out,
        "{}",
        lang.pick(
            format!("Inscrito {name} con el número {id}"),
            format!("Entered {name} as number {id}")
        )
    )
    .map_err(io_err)
}

/// `retirar`: withdraws a player from a round on (the next by default).
fn retirar(file: &Path, player: u32, from: Option<u32>, lang: Lang) -> Result<(), CliError> {
    let mut t = load(file, lang)?;
    let from = from.unwrap_or(t.rounds.len() as u32 + 1);
    t.withdraw(player, from).map_err(CliError::Tournament)?;
    save(file, &t, lang)
}

/// `descanso`: a bye asked for a round not paired yet.
fn descanso(
    file: &Path,
    player: u32,
    round: u32,
    kind: ByeArg,
    lang: Lang,
) -> Result<(), CliError> {
    let mut t = load(file, lang)?;
    let kind = match kind {
        ByeArg::Half => ByeKind::Half,
        ByeArg::Full => ByeKind::Full,
        ByeArg::Zero => ByeKind::Zero,
    };
    t.request_bye(player, round, kind)
        .map_err(CliError::Tournament)?;
    save(file, &t, lang)
}

/// `prohibir`: players who must not meet in the rounds given (the next to
/// the last by default).
fn prohibir(
    file: &Path,
    players: &[u32],
    from: Option<u32>,
    to: Option<u32>,
    lang: Lang,
) -> Result<(), CliError> {
    let mut t = load(file, lang)?;
    let first = from.unwrap_or(t.rounds.len() as u32 + 1);
    let last = to.unwrap_or(t.total_rounds.max(first));
    t.forbid(players, first, last)
        .map_err(CliError::Tournament)?;
    save(file, &t, lang)
}

/// `emparejar`: a TRF from another program (or `--javafo`) gets its next
/// round printed in JaVaFo's convention, nothing saved; escaque's own file
/// gets its next round paired, saved and printed.
fn emparejar(out: &mut impl Write, file: &Path, javafo: bool, lang: Lang) -> Result<(), CliError> {
    let (text, cp1252) = torneo_file::read_text(file)?;
    warn_encoding(file, cp1252, lang);
    let t = trf::parse(&text).map_err(CliError::Trf)?;
    let own = text.lines().any(|l| l.starts_with("XZS"));
    if javafo || !own {
        print_javafo_pairs(out, &t)
    } else {
        pair_and_save(out, file, t, lang)
    }
}

/// The next round of a foreign TRF in JaVaFo's and bbpPairings' output:
/// the number of pairs, then `white black` a line (`0` for the bye).
fn print_javafo_pairs(out: &mut impl Write, t: &Tournament) -> Result<(), CliError> {
    let round = t.rounds.len() as u32 + 1;
    // A finished tournament is not paired past its last round,
    // as bbpPairings refuses it (a file that does not give the
    // number of rounds ends with its last round: bbpPairings
    // refuses to pair it too).
    if round > t.total_rounds {
        return Err(CliError::Tournament(
            escaque_torneo::TorneoError::TournamentOver(t.total_rounds),
        ));
    }
    if round > 1 && !t.pending(round - 1).is_empty() {
        return Err(CliError::Tournament(
            escaque_torneo::TorneoError::RoundNotComplete {
                round: round - 1,
                pending: t.pending(round - 1),
            },
        ));
    }
    let players = pairing_players(t, round);
    let total = t.total_rounds.max(round);
    let pairs = pair(&players, round == total, total, t.first_white).ok_or(
        CliError::Tournament(escaque_torneo::TorneoError::NoPairing { round }),
    )?;
    writeln!(out, "{}", pairs.len()).map_err(io_err)?;
    for (w, b) in pairs {
        writeln!(out, "{w} {}", b.unwrap_or(0)).map_err(io_err)?;
    }
    Ok(())
}

/// Pairs escaque's own tournament: the pairing numbers (sorted, or frozen
/// in FIDE mode after round 4), the round, the file saved, the round
/// printed with a line for numbers frozen or reassigned.
fn pair_and_save(
    out: &mut impl Write,
    file: &Path,
    mut t: Tournament,
    lang: Lang,
) -> Result<(), CliError> {
    // Refuse first (over, round incomplete) so that a refused pairing
    // changes no number.
    t.next_round_number().map_err(CliError::Tournament)?;
    // FIDE mode: numbers frozen once round 4 is paired (C.04.2 B.3).
    let frozen = escaque_torneo::fide::numbers_frozen(&t);
    let renumbered = if frozen {
        (1..=t.players.len() as u32).collect()
    } else {
        t.sort_pairing_numbers()
    };
    let moved = renumbered
        .iter()
        .enumerate()
        .any(|(i, &n)| n != i as u32 + 1);
    let round = pair_next_round(&mut t).map_err(CliError::Tournament)?;
    save(file, &t, lang)?;
    writeln!(out, "{}", escaque_torneo::fide::mark(&t, lang)).map_err(io_err)?;
    let late = t.players.iter().any(|p| p.entry_round == round);
    if frozen && late {
        writeln!(
            out,
            "{}",
            lang.pick(
                "Números de emparejamiento congelados (modo FIDE, ronda 4 ya emparejada): los inscritos tarde conservan su número",
                "Pairing numbers frozen (FIDE mode, round 4 already paired): late entries keep their numbers"
            )
        )
        .map_err(io_err)?;
    }
    if moved {
        writeln!(
            out,
            "{}",
            lang.pick(
                "Números de emparejamiento reasignados por Elo, título y nombre (C.04.2)",
                "Pairing numbers reassigned by rating, title and name (C.04.2)"
            )
        )
        .map_err(io_err)?;
    }
    print_round(out, &t, round, lang)
}

/// `resultado`: enters or corrects a board's result, saved; a correction
/// is said, with the later rounds paired on the old result.
fn resultado(
    out: &mut impl Write,
    file: &Path,
    round: u32,
    board: u32,
    result: &str,
    lang: Lang,
) -> Result<(), CliError> {
    let mut t = load(file, lang)?;
    // An unusual result (½-0, 0-½, 0-0): each player scores their own.
    let (c, now) = if let Some(u) = Unusual::parse(result) {
        let c = t
            .set_unusual_board(round, board, u)
            .map_err(CliError::Tournament)?;
        (c, u.text())
    } else {
        let outcome = Outcome::parse(result).map_err(CliError::Tournament)?;
        let c = t
            .set_result_board(round, board, outcome)
            .map_err(CliError::Tournament)?;
        (c, outcome.text())
    };
    save(file, &t, lang)?;
    // What the board held before, as printed (an unusual result by its own
    // text, not the ½-½ it is stored with).
    if let Some(before) = c.previous_text().filter(|b| *b != now) {
        writeln!(
            out,
            "{}",
            lang.pick(
                format!("Corregido: antes {before}"),
                format!("Corrected: was {before}")
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

/// `clasificacion`: the regulation's heading and the tie-breaks not used,
/// then one player's detail (`--detalle`) or the table.
fn clasificacion(
    out: &mut impl Write,
    file: &Path,
    category: Option<&str>,
    detail: Option<u32>,
    rules: Option<RulesArg>,
    lang: Lang,
) -> Result<(), CliError> {
    let mut t = load(file, lang)?;
    if let Some(r) = rules {
        t.tiebreak_rules = Some(r.rules());
    }
    let after = t.complete_rounds();
    writeln!(out, "{}", escaque_torneo::fide::mark(&t, lang)).map_err(io_err)?;
    writeln!(out, "{}", Rules::of(&t).heading(lang)).map_err(io_err)?;
    for (tb, _) in standings::dropped(&t) {
        writeln!(
            out,
            "{}",
            lang.pick(
                format!("{} no cuenta: hay jugadores sin Elo y las bases no fijan con qué Elo cuentan (--elo-sin-elo)", tb.acronym()),
                format!("{} is not used: unrated players take part and no rating is set for them (--elo-sin-elo)", tb.acronym())
            )
        )
        .map_err(io_err)?;
    }
    match detail {
        Some(id) => print_detail(out, &t, id, after, lang),
        None => print_standings(out, &t, category, after, lang),
    }
}

/// The standings table after round `after`: place (within `category` when
/// given), number, name, points and each tie-break (`—` for one not used).
fn print_standings(
    out: &mut impl Write,
    t: &Tournament,
    category: Option<&str>,
    after: u32,
    lang: Lang,
) -> Result<(), CliError> {
    let codes: Vec<&str> = t.tiebreaks.iter().map(|tb| tb.acronym()).collect();
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
    let dropped: Vec<TieBreak> = standings::dropped(t).into_iter().map(|d| d.0).collect();
    let mut place = 0;
    for s in compute_after(t, after) {
        let p = &t.players[s.player as usize - 1];
        if category.is_some_and(|c| p.category != c) {
            continue;
        }
        place += 1;
        let shown = if category.is_some() { place } else { s.rank };
        let tbs: Vec<String> = s
            .tiebreaks
            .iter()
            .zip(&t.tiebreaks)
            .map(|(v, tb)| {
                if dropped.contains(tb) {
                    "—".to_string()
                } else {
                    number_text(*v, lang)
                }
            })
            .collect();
        writeln!(
            out,
            "{:>4} {:>4}  {:<30} {:>6}  {}",
            shown,
            s.player,
            p.name,
            points_text(s.points, lang),
            tbs.join("  ")
        )
        .map_err(io_err)?;
    }
    Ok(())
}

/// `exportar`: FIDE's TRF, without escaque's own `XZ` lines.
fn exportar(file: &Path, dest: &Path, lang: Lang) -> Result<(), CliError> {
    let t = load(file, lang)?;
    let text: String = trf::write_checked(&t)
        .map_err(CliError::Tournament)?
        .lines()
        .filter(|l| !l.starts_with("XZ"))
        .map(|l| format!("{l}\n"))
        .collect();
    torneo_file::write_atomic(dest, &text)
}

/// `imprimir`: the printed pages written to `dir` (each path printed), and
/// each one's PDF with `--pdf`.
fn imprimir(
    out: &mut impl Write,
    file: &Path,
    dir: &Path,
    round: Option<u32>,
    pdf: bool,
    paper: PaperArg,
    lang: Lang,
) -> Result<(), CliError> {
    let t = load(file, lang)?;
    let paper = match paper {
        PaperArg::A4 => html::Paper::A4,
        PaperArg::Letter => html::Paper::Letter,
    };
    std::fs::create_dir_all(dir).map_err(io_err)?;
    let pages = printed_pages(&t, round, paper);
    // One Chromium prints every page.
    let mut printer = if pdf {
        Some(crate::pdf::Printer::new(crate::pdf::find_chromium()?))
    } else {
        None
    };
    for (name, text) in pages {
        let path = dir.join(&name);
        torneo_file::write_atomic(&path, &text)?;
        writeln!(out, "{}", path.display()).map_err(io_err)?;
        if let Some(printer) = &mut printer {
            let pdf = path.with_extension("pdf");
            printer.print(&path, &pdf)?;
            writeln!(out, "{}", pdf.display()).map_err(io_err)?;
        }
    }
    Ok(())
}

/// The printed pages, file name and HTML: standings, crosstable,
/// categories, teams, and the pairings of `round` (the last by default)
/// once a round is paired.
fn printed_pages(t: &Tournament, round: Option<u32>, paper: html::Paper) -> Vec<(String, String)> {
    // Each page asks for its paper (CSS `@page`), which Chromium's
    // PDF follows.
    let mut pages = vec![
        (
            "clasificacion.html".to_string(),
            html::standings_page_on(t, paper),
        ),
        (
            "cruzada.html".to_string(),
            html::crosstable_page_on(t, paper),
        ),
        (
            "categorias.html".to_string(),
            html::categories_page_on(t, paper),
        ),
        ("equipos.html".to_string(), html::teams_page_on(t, paper)),
    ];
    let r = round.unwrap_or(t.rounds.len() as u32);
    if r >= 1 {
        pages.push((format!("ronda-{r}.html"), html::pairings_on(t, r, paper)));
    }
    pages
}

/// A score as the standings write it: one number style with the
/// printouts ([`escaque_torneo::print::points`]), the decimal comma in
/// Spanish (`17,5`) and the point in English (`17.5`); never `17½`.
fn points_text(hp: u32, lang: Lang) -> String {
    let s = escaque_torneo::print::points(hp);
    lang.pick(s.clone(), s.replace(',', "."))
}

/// A tie-break's value in the same style ([`escaque_torneo::print::number`]):
/// `46,75`, `13,5`, `13` (`46.75` in English).
fn number_text(v: f64, lang: Lang) -> String {
    let s = escaque_torneo::print::number(v);
    lang.pick(s.clone(), s.replace(',', "."))
}

/// `clasificacion --detalle N`: how player N's tie-breaks were made
/// ([`standings::explain`]).
fn print_detail(
    out: &mut impl Write,
    t: &Tournament,
    id: u32,
    after: u32,
    lang: Lang,
) -> Result<(), CliError> {
    let d = standings::explain(t, id, after).map_err(CliError::Tournament)?;
    let name = |p: u32| t.players[p as usize - 1].name.clone();
    let pts = |hp: u32| points_text(hp, lang);
    writeln!(
        out,
        "{}",
        lang.pick(
            format!(
                "{id} {}: {} puntos tras la ronda {}",
                name(id),
                pts(d.points),
                d.after_round
            ),
            format!(
                "{id} {}: {} points after round {}",
                name(id),
                pts(d.points),
                d.after_round
            )
        )
    )
    .map_err(io_err)?;
    for r in &d.rounds {
        let what = match r.entry {
            escaque_torneo::Entry::Game {
                opponent, result, ..
            } => {
                let res = match result {
                    escaque_torneo::model::GameResult::Win => "1",
                    escaque_torneo::model::GameResult::Draw => "½",
                    escaque_torneo::model::GameResult::Loss => "0",
                    escaque_torneo::model::GameResult::ForfeitWin => {
                        lang.pick("+ (incomparecencia)", "+ (forfeit)")
                    }
                    escaque_torneo::model::GameResult::ForfeitLoss => {
                        lang.pick("- (incomparecencia)", "- (forfeit)")
                    }
                    escaque_torneo::model::GameResult::Pending => "*",
                };
                format!(
                    "{res} {} {opponent} {}",
                    lang.pick("contra", "against"),
                    name(opponent)
                )
            }
            escaque_torneo::Entry::Bye(k) => match k {
                ByeKind::PairingAllocated => lang
                    .pick("exento (1)", "pairing-allocated bye (1)")
                    .to_string(),
                ByeKind::Half => lang
                    .pick("descanso de ½ pedido", "half-point bye")
                    .to_string(),
                ByeKind::Full => lang
                    .pick("descanso de 1 (organización)", "full-point bye")
                    .to_string(),
                ByeKind::Zero => lang.pick("sin jugar, 0", "zero-point bye").to_string(),
            },
            escaque_torneo::Entry::Absent => lang.pick("ausente, 0", "absent, 0").to_string(),
        };
        let why = match &r.counted {
            Counted::Opponent {
                opponent,
                actual,
                adjusted,
                as_draws,
            } => {
                if as_draws.is_empty() {
                    lang.pick(
                        format!("el rival {opponent} tiene {} (sus rondas no jugadas, con los puntos que sacó)", pts(*actual)),
                        format!("opponent {opponent} has {} (unplayed rounds with the points scored)", pts(*actual)),
                    )
                } else {
                    let rounds: Vec<String> = as_draws.iter().map(|x| x.0.to_string()).collect();
                    lang.pick(
                        format!("el rival {opponent} tiene {}; sus rondas {} tras dejar de jugar cuentan como tablas (C.07 16.2.5): {}", pts(*actual), rounds.join(", "), pts(*adjusted)),
                        format!("opponent {opponent} has {}; rounds {} after withdrawing count as draws (C.07 16.2.5): {}", pts(*actual), rounds.join(", "), pts(*adjusted)),
                    )
                }
            }
            Counted::Dummy { own, cap, value } => match cap {
                None => lang.pick(
                    format!("rival ficticio con la puntuación propia, {} (C.07 16.4)", pts(*own)),
                    format!("dummy opponent with the player's own score, {} (C.07 16.4)", pts(*own)),
                ),
                Some(standings::Cap::HalfTheRounds(c)) => lang.pick(
                    format!("rival ficticio: la puntuación propia {}, como mucho la mitad de las rondas {} (C.07 16.4.2, 2026): {}", pts(*own), pts(*c), pts(*value)),
                    format!("dummy opponent: own score {}, at most half the rounds {} (C.07 16.4.2, 2026): {}", pts(*own), pts(*c), pts(*value)),
                ),
                Some(standings::Cap::Opponent { opponent, adjusted }) => lang.pick(
                    format!("rival ficticio: la puntuación propia {}, como mucho la del rival {opponent}, {} (C.07 16.4.1, 2026): {}", pts(*own), pts(*adjusted), pts(*value)),
                    format!("dummy opponent: own score {}, at most opponent {opponent}'s {} (C.07 16.4.1, 2026): {}", pts(*own), pts(*adjusted), pts(*value)),
                ),
            },
            Counted::Nothing => lang
                .pick("no cuenta (round robin: ronda sin rival)", "not counted (round robin: no opponent)")
                .to_string(),
        };
        let bh = r.buchholz.map(pts).unwrap_or_else(|| "—".into());
        let sb = r
            .sonneborn_berger
            .map(|q| number_text(q as f64 / 4.0, lang))
            .unwrap_or_else(|| "—".into());
        writeln!(
            out,
            "  {} {:>2}: {what}. BH {bh}, SB {sb}{}{}. {why}",
            lang.pick("Ronda", "Round"),
            r.round,
            if r.voluntary {
                lang.pick(", no jugada voluntaria", ", voluntarily unplayed")
            } else {
                ""
            },
            if r.koya { ", Koya" } else { "" },
        )
        .map_err(io_err)?;
    }
    if let Some(r) = d.cut_low {
        writeln!(
            out,
            "{}",
            lang.pick(
                format!("  Corte (BH-C1, y el menor de BH-M1): la ronda {r} (primero las no jugadas voluntarias, luego la menor; C.07 14 y 16.5)"),
                format!("  Cut (BH-C1, and BH-M1's lowest): round {r} (voluntarily unplayed rounds first, then the lowest; C.07 14 and 16.5)")
            )
        )
        .map_err(io_err)?;
    }
    if let Some(r) = d.cut_high {
        writeln!(
            out,
            "{}",
            lang.pick(
                format!("  Corte del mayor (BH-M1): la ronda {r}"),
                format!("  Highest cut (BH-M1): round {r}")
            )
        )
        .map_err(io_err)?;
    }
    writeln!(
        out,
        "{}",
        lang.pick(
            format!(
                "  Koya: cuentan los rivales con {} puntos o más (la mitad de lo máximo posible)",
                pts(d.koya_threshold)
            ),
            format!(
                "  Koya: opponents with {} points or more count (half the maximum possible score)",
                pts(d.koya_threshold)
            )
        )
    )
    .map_err(io_err)?;
    let values: Vec<String> = d
        .values
        .iter()
        .map(|(tb, v)| {
            if d.dropped.iter().any(|x| x.0 == *tb) {
                format!("{} —", tb.acronym())
            } else {
                format!("{} {}", tb.acronym(), number_text(*v, lang))
            }
        })
        .collect();
    writeln!(out, "  {}", values.join(", ")).map_err(io_err)?;
    Ok(())
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
                escaque_torneo::ByeKind::Full => {
                    lang.pick("descanso concedido (1 punto)", "full-point bye")
                }
                escaque_torneo::ByeKind::Zero => lang.pick("no juega", "not playing"),
            }
        )
        .map_err(io_err)?;
    }
    Ok(())
}
