import CFFmpeg
import Foundation
import MarqueeCore
import Synchronization
@testable import MarqueeMedia
import MarqueeTestSupport
import Testing

/// The internal handle owners the decoder and scaler are built on: demux, decode, seek, exact times.
@Suite struct HandleOwnerTests {
    @Test func demuxingReadsEveryPacketAndThenReportsTheEnd() throws {
        let container = try InputContainer(opening: .file(path: FixtureMedia.path(.h264AAC)))
        try container.findStreamInfo()
        let packet = try Packet()
        var packetsPerStream = [Int: Int]()

        while try container.readPacket(into: packet) == .packet {
            packetsPerStream[packet.streamIndex, default: 0] += 1
        }

        #expect(packetsPerStream[0] == 50)  // 2 s at 25 fps
        #expect((packetsPerStream[1] ?? 0) >= 94)  // 2 s of 1024-sample AAC frames at 48 kHz, plus priming
        #expect(try container.readPacket(into: packet) == .endOfFile)  // and it stays at the end
    }

    @Test func decodingDeliversEveryVideoFrameWithExactTimes() throws {
        let container = try InputContainer(opening: .file(path: FixtureMedia.path(.h264AAC)))
        try container.findStreamInfo()
        let videoIndex = try #require(container.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO))
        let decoder = try CodecContext(decoding: videoIndex, of: container)
        let packet = try Packet()
        let frame = try Frame()
        var times: [MediaTime] = []

        func drain() throws {
            while try decoder.receive(into: frame) == .frame {
                #expect(frame.pictureSize == PixelSize(width: 320, height: 240))
                times.append(try #require(frame.presentationTime(timeBase: decoder.timeBase)))
            }
        }
        while try container.readPacket(into: packet) == .packet {
            guard packet.streamIndex == videoIndex else { continue }
            while try decoder.send(packet) == .mustReceiveFirst { try drain() }
            try drain()
        }
        #expect(try decoder.sendEndOfStream() == .accepted)
        try drain()

        #expect(try decoder.receive(into: frame) == .endOfStream)
        #expect(times == (0..<50).map { MediaTime(Int64($0), per: 25) })
    }

    @Test func decodingAudioCountsEverySample() throws {
        let container = try InputContainer(opening: .file(path: FixtureMedia.path(.stereoWAV)))
        try container.findStreamInfo()
        let decoder = try CodecContext(decoding: 0, of: container)
        let packet = try Packet()
        let frame = try Frame()
        var samples = 0

        while try container.readPacket(into: packet) == .packet {
            #expect(try decoder.send(packet) == .accepted)
            while try decoder.receive(into: frame) == .frame {
                #expect(frame.channelCount == 2 && frame.sampleRate == 44_100)
                samples += frame.sampleCount
            }
        }

        #expect(samples == 88_200)
    }

    @Test func seekingLandsOnTheKeyFrameAtOrBeforeTheTarget() throws {
        // The clip has a key frame every second (-g 25).
        let container = try InputContainer(opening: .file(path: FixtureMedia.path(.h264AAC)))
        try container.findStreamInfo()
        let videoIndex = try #require(container.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO))
        let timeBase = container.withStream(at: videoIndex) { $0.pointee.time_base }
        let packet = try Packet()

        try container.seek(toKeyFrameAtOrBefore: MediaTime(3, per: 2))
        var first: MediaTime?
        while first == nil, try container.readPacket(into: packet) == .packet {
            guard packet.streamIndex == videoIndex else { continue }
            #expect(packet.isKeyFrame)
            first = packet.presentationTime(timeBase: timeBase)
        }

        #expect(first == MediaTime(seconds: 1))
    }

    @Test func aDecoderForAnUnknownCodecIsAnErrorWithTheCode() throws {
        let container = try InputContainer(opening: .file(path: FixtureMedia.path(.undecodableNUT)))
        try container.findStreamInfo()

        let error = try #require(throws: FFmpegError.self) { try CodecContext(decoding: 0, of: container) }

        #expect(error.code == marquee_averror_decoder_not_found())
        #expect(error.operation == "avcodec_find_decoder(none)")
        #expect(error.message == "Decoder not found")
    }

    @Test func streamDescriptionsAreSwiftValues() throws {
        let container = try InputContainer(opening: .file(path: FixtureMedia.path(.h264AAC)))
        try container.findStreamInfo()

        let streams = container.streams

        #expect(streams.map(\.codecName) == ["h264", "aac"])
        #expect(streams.map(\.codecTag) == ["avc1", "mp4a"])
        #expect(streams[0].timeBase.num == 1 && streams[0].timeBase.den == 12_800)
        #expect(container.bestStreamIndex(of: AVMEDIA_TYPE_AUDIO) == 1)
        #expect(container.bestStreamIndex(of: AVMEDIA_TYPE_SUBTITLE) == nil)
    }

    @Test func cancellingInterruptsAnOpenThatWouldWaitMuchLonger() throws {
        let server = try LoopbackHTTPServer(routes: ["/stall.mp4": .stall])
        defer { server.stop() }
        let interrupt = InterruptDeadline()
        let source = MediaSource.remote(url: server.url("/stall.mp4"))
        let outcome = Mutex<Int32?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now

        Thread {
            do throws(FFmpegError) {
                _ = try InputContainer(opening: source, options: MediaOpenOptions(networkTimeout: .seconds(30)), interrupt: interrupt)
            } catch {
                outcome.withLock { $0 = error.code }
            }
            finished.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.3)
        interrupt.cancel()

        #expect(finished.wait(timeout: .now() + 5) == .success, "the open did not return after cancel()")
        #expect(outcome.withLock { $0 } == marquee_averror_exit())
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(interrupt.isCancelled)
    }

    // MARK: Time

    @Test func timestampsBecomeExactMediaTimes() {
        let ntsc = AVRational(num: 1001, den: 30_000)
        #expect(MediaTime(timestamp: 3, timeBase: ntsc) == MediaTime(3003, per: 30_000))
        #expect(MediaTime(timestamp: 90_000, timeBase: AVRational(num: 1, den: 90_000)) == MediaTime(seconds: 1))
        #expect(MediaTime(timestamp: -1_024, timeBase: AVRational(num: 1, den: 48_000)) == MediaTime(-1_024, per: 48_000))
        #expect(MediaTime(timestamp: marquee_av_nopts_value(), timeBase: ntsc) == nil)
        #expect(MediaTime(timestamp: 5, timeBase: AVRational(num: 0, den: 1)) == nil)
        // A corrupt file's absurd pts times a large numerator does not fit: unknown, not a crash.
        #expect(MediaTime(timestamp: .max - 1, timeBase: AVRational(num: 1001, den: 7)) == nil)
        #expect(MediaTime(rational: AVRational(num: 30_000, den: 1001)) == MediaTime(30_000, per: 1001))
        #expect(MediaTime(rational: AVRational(num: 0, den: 0)) == nil)
    }

    @Test func mediaTimesBecomeTimestampsWithChosenRounding() {
        let ntsc = AVRational(num: 1001, den: 30_000)
        #expect(MediaTime(seconds: 1).timestamp(in: ntsc) == 29)  // 29.97 ticks, down
        #expect(MediaTime(seconds: 1).timestamp(in: ntsc, rounding: .up) == 30)
        #expect(MediaTime(seconds: 1).timestamp(in: ntsc, rounding: .toNearestOrAwayFromZero) == 30)
        #expect(MediaTime(-1, per: 2).timestamp(in: AVRational(num: 1, den: 3)) == -2)  // -1.5 down
        #expect(MediaTime(3003, per: 30_000).timestamp(in: ntsc) == 3)  // exact round trip
        #expect(MediaTime(seconds: 2).timestamp(in: marquee_av_time_base_q()) == 2_000_000)
    }

    @Test func displayMatrixAnglesBecomeClockwiseQuarterTurns() {
        #expect(StreamDescription.rotation(counterClockwiseDegrees: -90) == .clockwise90)
        #expect(StreamDescription.rotation(counterClockwiseDegrees: 90) == .clockwise270)
        #expect(StreamDescription.rotation(counterClockwiseDegrees: 180) == .upsideDown)
        #expect(StreamDescription.rotation(counterClockwiseDegrees: -180) == .upsideDown)
        #expect(StreamDescription.rotation(counterClockwiseDegrees: -89.6) == .clockwise90)
        #expect(StreamDescription.rotation(counterClockwiseDegrees: 45) == .none)
        #expect(StreamDescription.rotation(counterClockwiseDegrees: .nan) == .none)
    }

    // MARK: Log

    @Test func ffmpegsLogIsRecordedPerThreadAndNeverPrinted() throws {
        let path = try FixtureMedia.path(.truncatedMP4)

        let error = try #require(throws: FFmpegError.self) { try InputContainer(opening: .file(path: path)) }

        #expect(error.log == ["moov atom not found"])
        #expect(error.description == "avformat_open_input failed: Invalid data found when processing input (\(error.code)) [moov atom not found]")
        // Nothing was being recorded on this thread outside the call.
        let (_, quiet) = FFmpegLog.recording { () -> Void in }
        #expect(quiet.isEmpty)
    }
}
