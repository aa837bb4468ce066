from denoising.examples import MaskDenoiser, DenoisingExample

__all__ = ["MaskDenoiser", "DenoisingExample"]
