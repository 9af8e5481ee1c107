//! How a run is handed to a process that starts keepers or programs (the
//! zygote, a resident keeper) over a Unix stream socket: the spec's length
//! (8 bytes, little-endian) with the program's three standard streams
//! attached (`SCM_RIGHTS`), then the spec as JSON.
//!
//! Low in the sandbox's order (docs/architecture.md): it imports only
//! [`crate::spec`]; the resident keeper and the zygote speak it.

use std::io::{self, IoSlice, IoSliceMut, Read as _, Write as _};
use std::mem::MaybeUninit;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::net::UnixStream;

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags,
};

use crate::spec::Spec;

/// Sends one run: `spec` with these standard streams.
pub(crate) fn send(
    socket: &UnixStream,
    spec: &Spec,
    streams: [BorrowedFd<'_>; 3],
) -> io::Result<()> {
    let json = serde_json::to_vec(spec).map_err(io::Error::other)?;
    let len = (json.len() as u64).to_le_bytes();
    send_with_fds(socket, &len, &streams)?;
    (&*socket).write_all(&json)
}

/// Receives one run: `None` at the end of the socket or on a broken one.
pub(crate) fn receive(socket: &UnixStream) -> Option<(Spec, [OwnedFd; 3])> {
    let mut len = [0u8; 8];
    let fds = receive_with_fds(socket, &mut len).ok()?;
    let fds: [OwnedFd; 3] = fds.try_into().ok()?;
    let len = usize::try_from(u64::from_le_bytes(len)).ok()?;
    let mut json = vec![0u8; len];
    (&*socket).read_exact(&mut json).ok()?;
    let spec: Spec = serde_json::from_slice(&json).ok()?;
    Some((spec, fds))
}

/// Sends `bytes` with `fds` attached.
pub(crate) fn send_with_fds(
    socket: &UnixStream,
    bytes: &[u8],
    fds: &[BorrowedFd<'_>],
) -> io::Result<()> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::Error::other("no room for the descriptors"));
    }
    let sent = rustix::net::sendmsg(
        socket,
        &[IoSlice::new(bytes)],
        &mut control,
        SendFlags::NOSIGNAL,
    )?;
    if sent != bytes.len() {
        // Only the first bytes carry the descriptors; the rest follow.
        (&*socket).write_all(&bytes[sent..])?;
    }
    Ok(())
}

/// Fills `bytes` exactly and returns the descriptors attached (at most 3).
pub(crate) fn receive_with_fds(socket: &UnixStream, bytes: &mut [u8]) -> io::Result<Vec<OwnedFd>> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let got = rustix::net::recvmsg(
        socket,
        &mut [IoSliceMut::new(bytes)],
        &mut control,
        RecvFlags::CMSG_CLOEXEC | RecvFlags::WAITALL,
    )?;
    let mut fds = Vec::new();
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmRights(received) = message {
            fds.extend(received);
        }
    }
    if got.bytes != bytes.len() {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the socket closed",
        ));
    }
    Ok(fds)
}
