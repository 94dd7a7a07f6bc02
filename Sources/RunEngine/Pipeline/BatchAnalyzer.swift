@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import SpecKernel
import UserAlgorithms

/// The analyzing half of `run` for one partition, driven synchronously: each batch's rows checked
/// and run through the reference kernel, as a task of `run --replay --tasks 1` does, without timing
/// or output files. What `simharness-workloads pipeline` counts the instructions of (callgrind runs
/// one thread at a time: the run's tasks do not start under it).
package struct BatchAnalyzer {
    private var worker: PartitionWorker

    /// An analyzer with SPEC's default settings; `jitterSeed` is `run`'s (the scenario's seed).
    package init(jitterSeed: UInt64) {
        worker = PartitionWorker(settings: WorkerSettings(
            algorithm: AlgorithmSettings(jitterSeed: jitterSeed), implementations: .reference, timing: false, writesOutput: false
        ))
    }

    /// Checks and analyzes every user of `batch`.
    package mutating func analyze(_ batch: SimulationBatch) {
        var output: BatchOutput?
        worker.run(batch, output: &output)
    }

    /// The digest of the outputs so far (a one-partition run's `output_digest`).
    package var digest: UInt64 { worker.metrics.digest }
}
