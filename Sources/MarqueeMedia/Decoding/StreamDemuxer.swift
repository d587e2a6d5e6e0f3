import CFFmpeg
import Foundation
import MarqueeCore

/// The one read loop of a reader: takes the container's packets in file order, hands each to the
/// decoder of its stream (the video one, and the audio one while audio is wanted), and gives back
/// decoded frames in the order they come out, so pictures and audio stay interleaved as the file
/// has them. A read error ends the input the way the end of the file does (as the ffmpeg CLI treats
/// it), so a damaged file plays what can be played.
final class StreamDemuxer {
    enum Output: Equatable {
        case video
        case audio
    }

    let container: InputContainer
    let video: StreamDecoder?
    let audio: StreamDecoder?
    private let packet: Packet
    /// Reads the container ahead on its own thread (remote sources); nil reads it here, as decoded.
    private(set) var readAhead: PacketReadAhead?
    /// The decoder that was just given input and may have frames to give before anything is read.
    private var draining: StreamDecoder?
    private var inputEnded = false
    /// Audio packets were dropped (audio was not wanted) since the audio decoder last saw input.
    private var audioSkipped = false

    /// The read error that ended the input early, if one did.
    private(set) var readFailure: FFmpegError?

    /// How long to wait before asking a demuxer that said "try again" (EAGAIN) for the packet again.
    static let retryDelay: TimeInterval = 0.01

    init(container: InputContainer, video: StreamDecoder?, audio: StreamDecoder?) throws(FFmpegError) {
        self.container = container
        self.video = video
        self.audio = audio
        packet = try Packet()
    }

    /// Fills `frame` with the next decoded frame and says whose it is; nil at the end of the input
    /// once the decoders in use are drained.
    /// - Parameter includingAudio: whether audio packets are decoded; when false they are dropped
    ///   unread, and the audio decoder starts afresh when audio is wanted again (its output then jumps,
    ///   which the audio converter treats as a discontinuity).
    func next(into frame: Frame, includingAudio: Bool) throws(FFmpegError) -> Output? {
        let audio = includingAudio ? audio : nil
        if let audio, audioSkipped {
            audio.restart()
            audioSkipped = false
            if inputEnded { audio.finishInput() }
        }
        if let current = draining, current === self.audio, audio == nil {
            // It may still hold frames, or the packet it refused (which the next read overwrites).
            draining = nil
            audioSkipped = true
        }
        while true {
            if let current = draining {
                if try current.receive(into: frame) { return current === video ? .video : .audio }
                draining = nil
            }
            if !inputEnded {
                guard readPacket() else {
                    inputEnded = true
                    video?.finishInput()
                    audio?.finishInput()
                    continue
                }
                if let video, packet.streamIndex == video.streamIndex {
                    video.send(packet)
                    draining = video
                } else if let decoder = self.audio, packet.streamIndex == decoder.streamIndex {
                    if let audio {
                        audio.send(packet)
                        draining = audio
                    } else {
                        audioSkipped = true
                    }
                }
                continue
            }
            // The input has ended: take what each decoder still holds, video first.
            guard let unfinished = [video, audio].compactMap({ $0 }).first(where: { !$0.isFinished }) else { return nil }
            unfinished.finishInput()
            draining = unfinished
        }
    }

    /// From now on packets are read ahead on a thread of their own, up to `target` of media time.
    /// Call once, after everything else that reads the container directly (finding stream info).
    func startReadingAhead(target: Duration, warn: @escaping @Sendable (String) -> Void) {
        precondition(readAhead == nil, "reading ahead was started twice")
        let streams = [video, audio].compactMap { $0?.streamIndex }
        readAhead = PacketReadAhead(container: container, streams: streams, target: target, warn: warn)
    }

    /// Runs `body`, which repositions the container, with any read-ahead paused, then restarts
    /// reading and decoding from the new position.
    func repositioning(_ body: () throws(FFmpegError) -> Void) throws(FFmpegError) {
        if let readAhead {
            try readAhead.repositioning(body)
        } else {
            try body()
        }
        restart()
    }

    /// After the container was repositioned: every decoder drops what it holds and reading goes on
    /// from the new position.
    func restart() {
        video?.restart()
        audio?.restart()
        packet.unref()
        draining = nil
        inputEnded = false
        audioSkipped = false
    }

    /// Packets or frames lost to damage since the container was opened, in all streams.
    var damageCount: Int { (video?.damageCount ?? 0) + (audio?.damageCount ?? 0) }

    /// False when the input has ended, at the end of the file or at a read error.
    private func readPacket() -> Bool {
        while true {
            do throws(FFmpegError) {
                let outcome = if let readAhead { try readAhead.next(into: packet) } else { try container.readPacket(into: packet) }
                return outcome == .packet
            } catch where error.code == marquee_averror_eagain() {
                Thread.sleep(forTimeInterval: Self.retryDelay)
            } catch {
                readFailure = error
                return false
            }
        }
    }
}
