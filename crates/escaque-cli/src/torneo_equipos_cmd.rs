//! `escaque torneo --equipos …` (also `escaque torneo equipos …`): team
//! tournaments on the command line — create, enter teams, line-ups, pair,
//! results, standings and the Spanish printouts. The tournament lives in one
//! TRF-2026 team file (`escaque_torneo::teams::trf`), saved atomically after
//! every change.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use escaque::Lang;
use escaque_torneo::format_points;
use escaque_torneo::model::Outcome;
use escaque_torneo::teams::school::{ranking, SchoolRules};
use escaque_torneo::teams::standings::TeamTieBreak;
use escaque_torneo::teams::swiss::ColourType;
use escaque_torneo::teams::{
    print, schedule, trf, Member, RequestedBye, Scoring, Side, Team, TeamError, TeamSystem,
    TeamTournament,
};

use crate::error::CliError;
use crate::torneo_file;

#[derive(Args)]
pub struct EquiposArgs {
    #[command(subcommand)]
    command: EquiposCommand,
}

#[derive(Copy, Clone, ValueEnum)]
enum SystemArg {
    /// Suizo por equipos, FIDE C.04.6.
    #[value(name = "suizo", alias = "swiss")]
    Swiss,
    /// Round robin (Berger).
    #[value(name = "rr")]
    RoundRobin,
    /// Doble round robin.
    #[value(name = "drr")]
    DoubleRoundRobin,
    /// Scheveningen: dos equipos, todos contra todos los del otro.
    #[value(name = "scheveningen")]
    Scheveningen,
    /// Doble Scheveningen.
    #[value(name = "dscheveningen")]
    DoubleScheveningen,
}

#[derive(Copy, Clone, ValueEnum)]
enum ColoursArg {
    /// Tipo A: preferencias simples.
    #[value(name = "a")]
    A,
    /// Tipo B: preferencias fuertes y leves.
    #[value(name = "b")]
    B,
    /// Sin preferencias de color.
    #[value(name = "ninguno", alias = "none")]
    None,
}

#[derive(Copy, Clone, ValueEnum)]
enum ForfeitArg {
    /// No se presenta el primer equipo.
    #[value(name = "primero", alias = "first")]
    First,
    /// No se presenta el segundo equipo.
    #[value(name = "segundo", alias = "second")]
    Second,
    /// No se presenta ninguno.
    #[value(name = "ambos", alias = "both")]
    Both,
}

#[derive(Copy, Clone, ValueEnum)]
enum ByeArg {
    /// Descanso de punto entero: los puntos de encuentro de una victoria y un punto por tablero.
    #[value(name = "completo", alias = "full")]
    Full,
    /// Medio punto: los puntos de encuentro de un empate y medio punto por tablero.
    #[value(name = "medio", alias = "half")]
    Half,
    /// Sin puntos.
    #[value(name = "cero", alias = "zero")]
    Zero,
}

#[derive(Subcommand)]
enum EquiposCommand {
    /// Crea un torneo por equipos nuevo en ARCHIVO.
    #[command(alias = "new")]
    Nuevo {
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        #[arg(long = "nombre", alias = "name")]
        name: String,
        #[arg(
            long = "sistema",
            alias = "system",
            value_enum,
            default_value = "suizo"
        )]
        system: SystemArg,
        /// Tableros por encuentro.
        #[arg(long = "tableros", alias = "boards", default_value_t = 4)]
        boards: u32,
        /// Rondas (el suizo las necesita; round robin y Scheveningen las calculan).
        #[arg(long = "rondas", alias = "rounds")]
        rounds: Option<u32>,
        /// Puntos de encuentro por victoria/empate/derrota, p. ej. 2/1/0 o 3/1/0.
        #[arg(long = "puntuacion", alias = "scoring", default_value = "2/1/0")]
        scoring: String,
        /// Preferencias de color del suizo (C.04.6 1.7).
        #[arg(long = "colores", alias = "colours", value_enum, default_value = "a")]
        colours: ColoursArg,
        /// Emparejar por puntos de partida en vez de puntos de encuentro.
        #[arg(long = "por-puntos-de-partida", alias = "by-game-points")]
        by_game_points: bool,
        /// Desempates en orden, p. ej. "GPTS,EMGSB,DE" (GPTS, EMGSB, EMMSB, BH, DE, WIN, WON, BC).
        #[arg(long = "desempates", alias = "tiebreaks")]
        tiebreaks: Option<String>,
        /// Reglas escolares: como mucho N equipos por centro.
        #[arg(long = "max-equipos-centro", alias = "max-teams-per-school")]
        max_teams: Option<u32>,
        /// Reglas escolares: cada equipo necesita K jugadores de la categoría C ("C:K"; se puede repetir).
        #[arg(long = "categoria", alias = "category")]
        categories: Vec<String>,
        /// Equipos de cada centro que cuentan en la clasificación por centros.
        #[arg(long = "cuentan", alias = "counted", default_value_t = 1)]
        counted: u32,
        /// El primer equipo sorteado juega con negras en el tablero 1.
        #[arg(long = "negras-primero", alias = "first-black")]
        first_black: bool,
        /// El descanso por número impar vale una victoria (un punto por tablero) en vez del empate de C.04.6 (medio punto por tablero).
        #[arg(long = "descanso-como-victoria", alias = "bye-as-win")]
        bye_as_win: bool,
        /// Aceleración Bakú (C.04.7) del suizo por puntos de encuentro: la primera mitad de los equipos suma puntos virtuales en las primeras rondas.
        #[arg(long = "baku")]
        baku: bool,
    },
    /// Inscribe un equipo: --jugador "Nombre,elo,categoría" una vez por jugador.
    #[command(alias = "team")]
    Equipo {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Nombre del equipo.
        #[arg(long = "nombre", alias = "name")]
        name: String,
        /// Un jugador: "Nombre,elo,categoría" (elo y categoría opcionales).
        #[arg(long = "jugador", alias = "player", required = true)]
        players: Vec<String>,
        /// El capitán: su número en la lista del equipo (1 = el primero dado).
        #[arg(long = "capitan", alias = "captain")]
        captain: Option<usize>,
        /// Orden de fuerza fijado por la organización (no se ordena por elo).
        #[arg(long = "orden-fijo", alias = "fixed-order")]
        fixed_order: bool,
        /// Centro o club del equipo.
        #[arg(long = "centro", alias = "school", default_value = "")]
        school: String,
    },
    /// Da la alineación de un equipo en una ronda: los números de sus jugadores en la lista, tablero 1 primero.
    #[command(alias = "lineup")]
    Alineacion {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Ronda.
        #[arg(long = "ronda", alias = "round")]
        round: u32,
        /// Número del equipo.
        #[arg(long = "equipo", alias = "team")]
        team: u32,
        /// P. ej. "1,2,4,5".
        #[arg(long = "jugadores", alias = "players")]
        players: String,
    },
    /// Prohíbe que unos equipos se enfrenten en las rondas que falten (solo el suizo): los números dados, o los equipos de un mismo centro.
    #[command(alias = "forbid")]
    Prohibir {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Números de equipo, p. ej. "1,4".
        #[arg(long = "equipos", alias = "teams", default_value = "")]
        teams: String,
        /// Los equipos de un mismo centro o club no se enfrentan.
        #[arg(long = "mismo-centro", alias = "same-school")]
        same_school: bool,
    },
    /// Un equipo pide no ser emparejado en una ronda aún sin emparejar (solo el suizo).
    #[command(alias = "bye")]
    Descanso {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Ronda.
        #[arg(long = "ronda", alias = "round")]
        round: u32,
        /// Número del equipo.
        #[arg(long = "equipo", alias = "team")]
        team: u32,
        /// Lo que vale el descanso.
        #[arg(long = "tipo", alias = "kind", value_enum, default_value = "medio")]
        kind: ByeArg,
    },
    /// Empareja la ronda siguiente y la imprime.
    #[command(alias = "pair")]
    Emparejar {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
    },
    /// Anota el resultado de un tablero (Blancas-Negras: 1-0, ½-½, 0-1, +/-, -/+, -/-) o la incomparecencia de un equipo entero.
    #[command(alias = "result")]
    Resultado {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Ronda.
        #[arg(long = "ronda", alias = "round")]
        round: u32,
        /// Número del encuentro en la ronda.
        #[arg(long = "encuentro", alias = "match")]
        table: u32,
        /// Tablero.
        #[arg(long = "tablero", alias = "board")]
        board: Option<u32>,
        /// El resultado, Blancas-Negras.
        #[arg(value_name = "RESULTADO")]
        result: Option<String>,
        /// El encuentro entero perdido por incomparecencia.
        #[arg(long = "incomparecencia", alias = "forfeit", value_enum)]
        forfeit: Option<ForfeitArg>,
    },
    /// Imprime los emparejamientos de una ronda (por encuentro y tablero).
    #[command(alias = "pairings")]
    Ronda {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// Ronda (por defecto, la última emparejada).
        #[arg(long = "ronda", alias = "round")]
        round: Option<u32>,
    },
    /// La clasificación por equipos (y por centros con --centros).
    #[command(alias = "standings")]
    Clasificacion {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
        /// También la clasificación por centros.
        #[arg(long = "centros", alias = "schools")]
        schools: bool,
    },
    /// El cuadro cruzado por equipos.
    #[command(alias = "crosstable")]
    Cuadro {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
    },
    /// Los resultados tablero a tablero de cada jugador.
    #[command(alias = "boards")]
    Tableros {
        /// Archivo del torneo.
        #[arg(value_name = "ARCHIVO")]
        file: PathBuf,
    },
}

fn load(path: &Path) -> Result<TeamTournament, CliError> {
    let (text, _) = torneo_file::read_text(path)?;
    trf::parse(&text).map_err(CliError::Trf)
}

fn save(path: &Path, t: &TeamTournament) -> Result<(), CliError> {
    torneo_file::write_atomic(path, &trf::write(t))
}

fn team_err(e: TeamError) -> CliError {
    CliError::Teams(e)
}

fn parse_scoring(text: &str) -> Result<Scoring, CliError> {
    let parts: Vec<&str> = text.split(['/', '-', ',']).map(str::trim).collect();
    let nums: Option<Vec<u32>> = parts.iter().map(|p| p.parse().ok()).collect();
    match nums.as_deref() {
        Some([w, d, l]) => {
            // FIDE mode (escaque_torneo::fide): two draws never above a
            // win and a loss; the bye scores a win, never more.
            escaque_torneo::fide::check_point_system(*w, *d, *l, *w)
                .map_err(|e| CliError::Tournament(e.into()))?;
            Scoring::new(*w, *d, *l).map_err(team_err)
        }
        _ => Err(team_err(TeamError::BadScoring {
            win: 0,
            draw: 0,
            loss: 0,
        })),
    }
}

fn parse_member(text: &str) -> Result<Member, CliError> {
    let mut parts = text.split(',').map(str::trim);
    let name = parts.next().unwrap_or("");
    let mut m = Member::new(name);
    if let Some(r) = parts.next().filter(|r| !r.is_empty()) {
        m.rating = Some(
            r.parse()
                .map_err(|_| team_err(TeamError::EmptyRoster(format!("{text} (elo «{r}»)"))))?,
        );
    }
    if let Some(c) = parts.next() {
        m.category = c.to_string();
    }
    Ok(m)
}

pub fn run(args: &EquiposArgs, lang: Lang) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let w = |e: std::io::Error| CliError::Write(e);
    match &args.command {
        EquiposCommand::Nuevo {
            file,
            name,
            system,
            boards,
            rounds,
            scoring,
            colours,
            by_game_points,
            tiebreaks,
            max_teams,
            categories,
            counted,
            first_black,
            bye_as_win,
            baku,
        } => {
            if file.exists() {
                return Err(CliError::Exists(file.display().to_string()));
            }
            let system = match system {
                SystemArg::Swiss => TeamSystem::Swiss,
                SystemArg::RoundRobin => TeamSystem::RoundRobin { double: false },
                SystemArg::DoubleRoundRobin => TeamSystem::RoundRobin { double: true },
                SystemArg::Scheveningen => TeamSystem::Scheveningen { double: false },
                SystemArg::DoubleScheveningen => TeamSystem::Scheveningen { double: true },
            };
            if system == TeamSystem::Swiss && rounds.is_none() {
                return Err(CliError::SwissNeedsRounds);
            }
            if *baku && (system != TeamSystem::Swiss || *by_game_points) {
                return Err(CliError::TeamBakuNeedsMatchPointSwiss);
            }
            let mut t = TeamTournament::new(name, system, (*boards).max(1), rounds.unwrap_or(0));
            t.scoring = parse_scoring(scoring)?;
            if *bye_as_win {
                t.scoring = t.scoring.bye_as_win(t.boards);
            }
            t.colour_preferences = match colours {
                ColoursArg::A => ColourType::A,
                ColoursArg::B => ColourType::B,
                ColoursArg::None => ColourType::None,
            };
            t.pair_by_game_points = *by_game_points;
            t.baku = *baku;
            t.first_white = !first_black;
            if let Some(list) = tiebreaks {
                t.tiebreaks = Vec::new();
                for code in list.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                    let tb = TeamTieBreak::from_code(code).ok_or_else(|| {
                        CliError::Trf(escaque_torneo::TrfError {
                            line: 0,
                            column: 0,
                            kind: escaque_torneo::TrfErrorKind::UnknownTieBreak(code.to_string()),
                        })
                    })?;
                    t.tiebreaks.push(tb);
                }
            }
            if max_teams.is_some() || !categories.is_empty() || *counted > 1 {
                let mut rules = SchoolRules {
                    max_teams: *max_teams,
                    categories: Vec::new(),
                    counted: *counted,
                };
                for c in categories {
                    let (cat, k) = c.rsplit_once(':').unwrap_or((c, "1"));
                    let k = k.trim().parse().map_err(|_| {
                        team_err(TeamError::CategoryShort {
                            team: String::new(),
                            category: c.clone(),
                            needed: 0,
                            has: 0,
                        })
                    })?;
                    rules.categories.push((cat.trim().to_string(), k));
                }
                t.school = Some(rules);
            }
            save(file, &t)?;
            writeln!(
                out,
                "{}",
                lang.pick(
                    format!("Torneo por equipos creado: {}", file.display()),
                    format!("Team tournament created: {}", file.display())
                )
            )
            .map_err(w)?;
        }
        EquiposCommand::Equipo {
            file,
            name,
            players,
            captain,
            fixed_order,
            school,
        } => {
            let mut t = load(file)?;
            let members = players
                .iter()
                .map(|p| parse_member(p))
                .collect::<Result<Vec<_>, _>>()?;
            let mut team = Team::new(name, members);
            if *captain == Some(0) {
                return Err(team_err(TeamError::NoSuchMember {
                    team: name.clone(),
                    index: 0,
                }));
            }
            team.captain = captain.map(|c| c - 1);
            team.fixed_order = *fixed_order;
            team.school = school.clone();
            let id = t.add_team(team).map_err(team_err)?;
            save(file, &t)?;
            writeln!(
                out,
                "{}",
                lang.pick(
                    format!("Equipo inscrito: {name}, número {id}"),
                    format!("Team entered: {name}, number {id}")
                )
            )
            .map_err(w)?;
            for (i, m) in t.teams[id as usize - 1].members.iter().enumerate() {
                let r = m.rating.map(|r| format!(" ({r})")).unwrap_or_default();
                writeln!(out, "  {}. {}{r}", i + 1, m.name).map_err(w)?;
            }
        }
        EquiposCommand::Alineacion {
            file,
            round,
            team,
            players,
        } => {
            let mut t = load(file)?;
            let list: Vec<usize> = players
                .split([',', ' '])
                .filter(|x| !x.is_empty())
                .map(|x| {
                    x.trim()
                        .parse::<usize>()
                        .ok()
                        .filter(|&n| n > 0)
                        .map(|n| n - 1)
                        .ok_or_else(|| {
                            team_err(TeamError::NoSuchMember {
                                team: format!("{team}"),
                                index: 0,
                            })
                        })
                })
                .collect::<Result<_, _>>()?;
            t.set_lineup(*round, *team, &list).map_err(team_err)?;
            save(file, &t)?;
            writeln!(
                out,
                "{}",
                lang.pick("Alineación guardada.", "Line-up saved.")
            )
            .map_err(w)?;
        }
        EquiposCommand::Prohibir {
            file,
            teams,
            same_school,
        } => {
            let mut t = load(file)?;
            let list: Vec<u32> = teams
                .split([',', ' '])
                .filter(|x| !x.is_empty())
                .map(|x| {
                    x.trim()
                        .parse::<u32>()
                        .map_err(|_| team_err(TeamError::NoSuchTeam(0)))
                })
                .collect::<Result<_, _>>()?;
            if *same_school {
                t.forbid_same_school().map_err(team_err)?;
            }
            if !*same_school || !list.is_empty() {
                t.forbid(&list).map_err(team_err)?;
            }
            save(file, &t)?;
            for (a, b) in &t.forbidden {
                let name = |id: u32| t.teams[id as usize - 1].name.clone();
                writeln!(
                    out,
                    "{}",
                    lang.pick(
                        format!("{a}. {} no juega contra {b}. {}", name(*a), name(*b)),
                        format!("{a}. {} does not play {b}. {}", name(*a), name(*b)),
                    )
                )
                .map_err(w)?;
            }
        }
        EquiposCommand::Descanso {
            file,
            round,
            team,
            kind,
        } => {
            let mut t = load(file)?;
            let kind = match kind {
                ByeArg::Full => RequestedBye::Full,
                ByeArg::Half => RequestedBye::Half,
                ByeArg::Zero => RequestedBye::Zero,
            };
            t.request_bye(*round, *team, kind).map_err(team_err)?;
            save(file, &t)?;
            let (mp, gp) = t.scoring.requested_bye(kind, t.boards);
            let name = &t.teams[*team as usize - 1].name;
            writeln!(
                out,
                "{}",
                lang.pick(
                    format!(
                        "{team}. {name} descansa en la ronda {round}: {mp} puntos de encuentro, {} de partida",
                        format_points(gp)
                    ),
                    format!(
                        "{team}. {name} has a bye in round {round}: {mp} match points, {} game points",
                        format_points(gp)
                    ),
                )
            )
            .map_err(w)?;
        }
        EquiposCommand::Emparejar { file } => {
            let mut t = load(file)?;
            let r = schedule::pair_next_round(&mut t).map_err(team_err)?;
            save(file, &t)?;
            write!(out, "{}", print::pairings(&t, r).unwrap_or_default()).map_err(w)?;
        }
        EquiposCommand::Resultado {
            file,
            round,
            table,
            board,
            result,
            forfeit,
        } => {
            let mut t = load(file)?;
            match (forfeit, board, result) {
                (Some(f), _, _) => {
                    let by = match f {
                        ForfeitArg::First => Some(Side::Home),
                        ForfeitArg::Second => Some(Side::Away),
                        ForfeitArg::Both => None,
                    };
                    t.forfeit_match(*round, *table, by).map_err(team_err)?;
                }
                (None, Some(b), Some(text)) => {
                    let o = Outcome::parse(text).map_err(CliError::Tournament)?;
                    t.set_result_by_colour(*round, *table, *b, o)
                        .map_err(team_err)?;
                }
                _ => {
                    return Err(team_err(TeamError::NoSuchBoard {
                        round: *round,
                        table: *table,
                        board: board.unwrap_or(0),
                    }))
                }
            }
            save(file, &t)?;
            if let Some(m) = t
                .rounds
                .get(*round as usize - 1)
                .and_then(|r| r.matches.get(*table as usize - 1))
            {
                let (h, a) = m.game_points();
                writeln!(
                    out,
                    "{} {} – {} {}",
                    t.teams[m.home as usize - 1].name,
                    format_points(h),
                    format_points(a),
                    t.teams[m.away as usize - 1].name
                )
                .map_err(w)?;
            }
        }
        EquiposCommand::Ronda { file, round } => {
            let t = load(file)?;
            let r = round.unwrap_or(t.rounds.len() as u32);
            let text = print::pairings(&t, r).ok_or(team_err(TeamError::NoSuchRound(r)))?;
            write!(out, "{text}").map_err(w)?;
        }
        EquiposCommand::Clasificacion { file, schools } => {
            let t = load(file)?;
            write!(out, "{}", print::standings_text(&t)).map_err(w)?;
            if *schools {
                writeln!(out, "\nClasificación por centros").map_err(w)?;
                for s in ranking(&t) {
                    writeln!(
                        out,
                        "{:>4}  {:<30} {:>4} PE {:>6} PP",
                        s.rank,
                        s.school,
                        s.match_points,
                        format_points(s.game_points)
                    )
                    .map_err(w)?;
                }
            }
        }
        EquiposCommand::Cuadro { file } => {
            let t = load(file)?;
            write!(out, "{}", print::crosstable(&t)).map_err(w)?;
        }
        EquiposCommand::Tableros { file } => {
            let t = load(file)?;
            write!(out, "{}", print::board_results(&t)).map_err(w)?;
        }
    }
    Ok(())
}
