import MarqueeCore

/// Trimmed audio of one item on its way from the decode thread to the audio thread, placed by
/// frame offset from the item's start (its time 0), so the renderer can lay items end to end.
struct AudioPiece: Sendable {
    /// Frames after the item's start at which `samples` begin.
    var offset: Int64
    var samples: [Float]
}

/// What an item's decode thread sends the audio thread, in this order: one header, pieces, end.
/// A queue closed without `end` was cancelled (a skip, a failure): nothing more is written for it.
enum AudioPipelineOutput: Sendable {
    case header(AudioRenderer.Header)
    case piece(AudioPiece)
    case end
}

/// One item's turn on the audio thread.
struct AudioSegment: Sendable {
    let itemIndex: Int
    /// The pipeline it came from (ItemPipeline.serial): tells a seek's audio from the audio before it.
    let serial: Int
    let audio: BlockingQueue<AudioPipelineOutput>
}
