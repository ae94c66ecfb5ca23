//! `changelog mirror push|prune` (docs/team.md, "The cluster mirror"): the queue sent on
//! demand, and the mirror's retention for admins. Both go through the guard, which holds
//! the client and sends the mirror's requests.

use crate::cli::{MirrorCommand, PruneDryRun};
use crate::config::model::age_string;
use crate::guard::{Purpose, Session};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Runs one `changelog mirror` subcommand.
///
/// # Errors
/// `push`: exit 1 when a record stays queued because of an error (the error says what to
/// do); `prune`: a bad `--older-than` (2), no mirror configured (2), the server's refusal
/// (403: exit 3) or failure.
pub async fn run(s: &Settings, cmd: &MirrorCommand, p: &mut Printer<'_>) -> Result<(), VerbError> {
    if s.plugin.changelog.mirror.is_none() {
        return Err(VerbError::Usage(
            "plugin.yaml sets no changelog.mirror.namespace, so there is no cluster mirror; set it (docs/team.md)".into(),
        ));
    }
    let session = Session::open(s, p, Purpose::Read).await?;
    match cmd {
        MirrorCommand::Push => push(&session, p).await,
        MirrorCommand::Prune {
            older_than,
            dry_run,
        } => {
            let age = age_string::parse(older_than)
                .map_err(|e| VerbError::Usage(format!("--older-than: {e}")))?;
            let dry = *dry_run == PruneDryRun::Server;
            let pruned = session.prune_mirror(age, dry).await?;
            let suffix = if dry { " (server dry run)" } else { "" };
            for name in &pruned.records {
                p.out(&format!("changerecord/{name} deleted{suffix}\n"))?;
            }
            p.flush()?;
            p.err_line(&format!(
                "{} record(s) and {} part(s) older than {older_than} deleted{suffix} from namespace {}; the local change logs keep every record",
                pruned.records.len(),
                pruned.parts,
                session.mirror_namespace().unwrap_or_default()
            ));
            Ok(())
        }
    }
}

/// Sends the queue of the session's server and user and says what it sent and left.
async fn push(session: &Session<'_>, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let flushed = session.push_mirror().await;
    for w in flushed.rejected.iter().chain(&flushed.taken) {
        p.err_line(w);
    }
    for name in &flushed.sent {
        p.out(&format!("changerecord/{name} mirrored\n"))?;
    }
    p.flush()?;
    if flushed.unread {
        let why = flushed.failure.unwrap_or_default();
        return Err(VerbError::io(format!("nothing was sent: {why}")));
    }
    let others = if flushed.others > 0 {
        format!(
            "; {} queued for other servers or users, sent by a command there",
            flushed.others
        )
    } else {
        String::new()
    };
    p.err_line(&format!(
        "{} record(s) sent to {}, {} left queued{others}",
        flushed.sent.len(),
        session.server(),
        flushed.left
    ));
    match flushed.failure {
        Some(why) => Err(VerbError::io(format!(
            "the mirror did not take every record: {why}"
        ))),
        None if !flushed.taken.is_empty() => Err(VerbError::io(format!(
            "the mirror did not take every record: {} record(s) stay queued because another writer holds their object names (see the warnings above)",
            flushed.taken.len()
        ))),
        None => Ok(()),
    }
}
