package classify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/modelguard"
)

// VisionModel is the Workers AI vision model (FACTS.md lists three). Llama
// 3.2 Vision follows a JSON-only instruction well, so one call gives the
// caption, the reaction, the keywords and the emoji together; moondream
// only captions or answers one question per call. (Meta's licence must be
// accepted once per account: send {"prompt": "agree"} to the model before
// the first deploy.)
const VisionModel = "@cf/meta/llama-3.2-11b-vision-instruct"

// VisionModelKey names the model in label cache keys.
const VisionModelKey = "llama-3.2-11b-vision"

// PromptVersion changes whenever Prompt changes: it is part of the label
// cache key, so labels of an older prompt are never served.
const PromptVersion = "1"

// Prompt is the production instruction sent with every image.
const Prompt = `You label pictures for an emoji keyboard. Look at the image and answer with ONE JSON object and nothing else, in English:
{"caption": "<one short sentence describing the image>", "reaction": "<a short phrase a friend would reply with>", "keywords": ["<3 to 6 single words naming what is shown or felt>"], "emoji": ["<up to 8 emoji that fit the image, best first>"]}`

// maxTokens bounds the model's answer: the JSON above is about 80 tokens.
const maxTokens = 256

// The request and answer of the model, as Workers AI defines them:
//
//	env.AI.run("@cf/meta/llama-3.2-11b-vision-instruct", {
//	  messages: [{role: "system", content: Prompt}, {role: "user", content: "Label this image."}],
//	  image: [255, 216, 255, ...],   // the image bytes as an array of integers 0..255
//	  max_tokens: 256, temperature: 0.2,
//	})  ->  {response: "<the model's text>", usage: {...}}
//
// Over REST: POST .../ai/run/@cf/meta/llama-3.2-11b-vision-instruct with
// the same JSON, answering {result: {response}, success, errors, messages}.
type visionRequest struct {
	Messages    []visionMessage `json:"messages"`
	Image       byteArray       `json:"image,omitempty"`
	MaxTokens   int             `json:"max_tokens"`
	Temperature float64         `json:"temperature"`
}

type visionMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// VisionAnswer is the model's output.
type VisionAnswer struct {
	Response string `json:"response"`
}

// byteArray marshals bytes as a JSON array of integers, the form the
// model's `image` input takes (encoding/json would write base64).
type byteArray []byte

func (b byteArray) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 2+4*len(b))
	out = append(out, '[')
	for i, c := range b {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendUint(out, uint64(c), 10)
	}
	return append(out, ']'), nil
}

func newRequest(image []byte) visionRequest {
	return visionRequest{
		Messages:    []visionMessage{{Role: "system", Content: Prompt}, {Role: "user", Content: "Label this image."}},
		Image:       image,
		MaxTokens:   maxTokens,
		Temperature: 0.2,
	}
}

// Vision describes an image: the model's raw text answer.
type Vision interface {
	Describe(ctx context.Context, image []byte) (string, error)
}

// ErrVision wraps every failure of the vision backend (degraded answer).
var ErrVision = errors.New("classify: vision backend failed")

// VisionDeadline is the vision model's deadline: Workers AI's vision
// models take seconds for a 384 px picture (the local model of hostsim
// answers in milliseconds; docs/benchmarks-history.md, issue 31), well inside a
// request's minute, and the breaker keeps a hung model to one such wait
// per cool-down.
const VisionDeadline = 8 * time.Second

// GuardedVision describes through a breaker (service/modelguard): every
// call has a deadline, and none is made while the breaker is open. Every
// failure is an ErrVision error: the route answers as for a vision model
// that is unavailable.
type GuardedVision struct {
	Vision  Vision
	Breaker *modelguard.Breaker
}

// Describe calls the model through the breaker.
func (g GuardedVision) Describe(ctx context.Context, image []byte) (string, error) {
	return modelguard.Guard(ctx, g.Breaker, ErrVision, func(ctx context.Context) (string, error) {
		return g.Vision.Describe(ctx, image)
	})
}

// ImageRunner is the AI binding's run with an image: inputs plus an
// `image` array of the bytes (worker/internal/cf/ai builds that array in
// JS, without a JSON round trip).
type ImageRunner interface {
	RunImage(ctx context.Context, model string, inputs any, image []byte, out any) error
}

// BindingVision calls the model through the AI binding.
type BindingVision struct{ AI ImageRunner }

// Describe runs the model on the image.
func (v BindingVision) Describe(ctx context.Context, image []byte) (string, error) {
	var out VisionAnswer
	if err := v.AI.RunImage(ctx, VisionModel, newRequest(nil), image, &out); err != nil {
		return "", fmt.Errorf("%w: %v", ErrVision, err)
	}
	return out.Response, nil
}

// RESTVision calls the model through the Workers AI REST API (BaseURL
// ends with "/ai/run/"), as local workerd must.
type RESTVision struct {
	BaseURL, Token string
	Client         meaning.Doer
}

// Describe runs the model on the image.
func (v RESTVision) Describe(ctx context.Context, image []byte) (string, error) {
	body, err := json.Marshal(newRequest(image))
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.BaseURL+VisionModel, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrVision, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+v.Token)
	resp, err := v.Client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrVision, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrVision, err)
	}
	var env struct {
		Result  *VisionAnswer `json:"result"`
		Success bool          `json:"success"`
		Errors  []struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return "", fmt.Errorf("%w: status %d, body not JSON", ErrVision, resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK || !env.Success || env.Result == nil {
		msgs := make([]string, 0, len(env.Errors))
		for _, e := range env.Errors {
			msgs = append(msgs, fmt.Sprintf("%d %s", e.Code, e.Message))
		}
		return "", fmt.Errorf("%w: status %d: %s", ErrVision, resp.StatusCode, strings.Join(msgs, "; "))
	}
	return env.Result.Response, nil
}
